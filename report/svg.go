package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Charts are drawn here as SVG text: no script runs in the report.

const (
	chartW   = 640
	chartH   = 240
	padLeft  = 64
	padRight = 28
	padTop   = 16
	padBot   = 40
)

// point is one (x, y) of a line chart.
type point struct{ x, y float64 }

// niceStep returns a round step (1, 2 or 5 times a power of ten) that
// cuts [0, max] into about n intervals.
func niceStep(max float64, n int) float64 {
	if !(max > 0) || math.IsInf(max, 0) {
		return 1
	}
	raw := max / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}

// human formats v with a k, M or G suffix and at most 3 significant digits.
func human(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return trimFloat(v/1e9) + "G"
	case a >= 1e6:
		return trimFloat(v/1e6) + "M"
	case a >= 1e3:
		return trimFloat(v/1e3) + "k"
	}
	return trimFloat(v)
}

func trimFloat(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a >= 100, a == math.Trunc(a):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		s := strconv.FormatFloat(v, 'f', 1, 64)
		return strings.TrimSuffix(s, ".0")
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// duration formats seconds as a short time: 45s, 12m30s, 3h05m.
func duration(s float64) string {
	switch {
	case s < 60:
		return trimFloat(s) + "s"
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", int(s)/60, int(s)%60)
	}
	return fmt.Sprintf("%dh%02dm", int(s)/3600, int(s)%3600/60)
}

func esc(s string) string { return html.EscapeString(s) }

func svgOpen(b *strings.Builder, id, title string, w, h int) {
	fmt.Fprintf(b, `<svg id="%s" class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="%s-title">`,
		esc(id), w, h, w, h, esc(id))
	fmt.Fprintf(b, `<title id="%s-title">%s</title>`, esc(id), esc(title))
}

func noData(b *strings.Builder, w, h int) {
	fmt.Fprintf(b, `<text class="nodata" x="%d" y="%d" text-anchor="middle">no data</text>`, w/2, h/2)
}

// yAxis draws horizontal grid lines and labels for [0, top] and returns
// the scale from a value to a y coordinate.
func yAxis(b *strings.Builder, max float64, w, h int) (top float64, y func(float64) float64) {
	step := niceStep(max, 4)
	top = step * math.Ceil(max/step)
	if top == 0 {
		top = step
	}
	plotH := float64(h - padTop - padBot)
	y = func(v float64) float64 { return float64(h-padBot) - v/top*plotH }
	for v := 0.0; v <= top+step/2; v += step {
		yy := y(v)
		fmt.Fprintf(b, `<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`, padLeft, yy, w-padRight, yy)
		fmt.Fprintf(b, `<text class="tick" x="%d" y="%.1f" text-anchor="end">%s</text>`, padLeft-6, yy+4, human(v))
	}
	return top, y
}

// lineChart draws pts (x in seconds) as a filled line.
func lineChart(id, title, yLabel string, pts []point) string {
	var b strings.Builder
	w, h := chartW, chartH
	svgOpen(&b, id, title, w, h)
	if len(pts) < 2 {
		noData(&b, w, h)
		b.WriteString(`</svg>`)
		return b.String()
	}
	maxX, maxY := pts[len(pts)-1].x, 0.0
	for _, p := range pts {
		maxY = max(maxY, p.y)
	}
	if maxX <= pts[0].x {
		maxX = pts[0].x + 1
	}
	_, y := yAxis(&b, maxY, w, h)
	plotW := float64(w - padLeft - padRight)
	x := func(v float64) float64 { return padLeft + (v-pts[0].x)/(maxX-pts[0].x)*plotW }
	xstep := niceStep(maxX-pts[0].x, 6)
	for v := 0.0; v <= maxX-pts[0].x+xstep/2; v += xstep {
		xx := x(pts[0].x + v)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, xx, h-padBot+16, duration(pts[0].x+v))
	}
	var line strings.Builder
	for i, p := range pts {
		cmd := 'L'
		if i == 0 {
			cmd = 'M'
		}
		fmt.Fprintf(&line, "%c%.1f %.1f", cmd, x(p.x), y(p.y))
	}
	fmt.Fprintf(&b, `<path class="area" d="%sL%.1f %.1fL%.1f %.1fZ"/>`, line.String(), x(pts[len(pts)-1].x), y(0), x(pts[0].x), y(0))
	fmt.Fprintf(&b, `<path class="line" d="%s"/>`, line.String())
	fmt.Fprintf(&b, `<text class="axis" x="%d" y="%d" text-anchor="middle">time since start</text>`, padLeft+int(plotW)/2, h-6)
	fmt.Fprintf(&b, `<text class="axis" transform="translate(14 %d) rotate(-90)" text-anchor="middle">%s</text>`, padTop+(h-padTop-padBot)/2, esc(yLabel))
	b.WriteString(`</svg>`)
	return b.String()
}

// bar is one bar of a bar chart.
type bar struct {
	label string
	n     float64
	class string // CSS class for its colour
}

// barChart draws vertical bars, labels under them.
func barChart(id, title string, bars []bar) string {
	var b strings.Builder
	w, h := chartW, chartH
	svgOpen(&b, id, title, w, h)
	if len(bars) == 0 {
		noData(&b, w, h)
		b.WriteString(`</svg>`)
		return b.String()
	}
	maxY := 0.0
	for _, br := range bars {
		maxY = max(maxY, br.n)
	}
	_, y := yAxis(&b, maxY, w, h)
	slot := float64(w-padLeft-padRight) / float64(len(bars))
	bw := math.Max(1, math.Min(slot*0.7, 60))
	rotate := slot < 48
	for i, br := range bars {
		cx := padLeft + slot*(float64(i)+0.5)
		top := y(br.n)
		cls := "bar"
		if br.class != "" {
			cls += " " + br.class
		}
		fmt.Fprintf(&b, `<rect class="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s: %s</title></rect>`,
			cls, cx-bw/2, top, bw, y(0)-top, esc(br.label), strconv.FormatFloat(br.n, 'f', -1, 64))
		if slot >= 28 {
			fmt.Fprintf(&b, `<text class="value" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, cx, top-4, human(br.n))
		}
		if rotate {
			fmt.Fprintf(&b, `<text class="tick" transform="translate(%.1f %d) rotate(-45)" text-anchor="end">%s</text>`, cx+3, h-padBot+12, esc(br.label))
		} else {
			fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, cx, h-padBot+16, esc(br.label))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// hbarChart draws horizontal bars with their labels on the left, for long
// labels.
func hbarChart(id, title string, bars []bar) string {
	var b strings.Builder
	const rowH, labelW = 22, 250
	w := chartW
	h := padTop + 8 + rowH*max(len(bars), 1)
	svgOpen(&b, id, title, w, h)
	if len(bars) == 0 {
		noData(&b, w, h)
		b.WriteString(`</svg>`)
		return b.String()
	}
	maxN := 0.0
	for _, br := range bars {
		maxN = max(maxN, br.n)
	}
	if maxN == 0 {
		maxN = 1
	}
	plotW := float64(w - labelW - padRight - 48)
	for i, br := range bars {
		yy := padTop + i*rowH
		bw := br.n / maxN * plotW
		label := br.label
		if len(label) > 40 {
			label = label[:39] + "…"
		}
		fmt.Fprintf(&b, `<text class="tick" x="%d" y="%d" text-anchor="end">%s</text>`, labelW-8, yy+15, esc(label))
		fmt.Fprintf(&b, `<rect class="bar %s" x="%d" y="%d" width="%.1f" height="%d"><title>%s: %s</title></rect>`,
			br.class, labelW, yy+3, math.Max(bw, 1), rowH-6, esc(br.label), strconv.FormatFloat(br.n, 'f', -1, 64))
		fmt.Fprintf(&b, `<text class="value" x="%.1f" y="%d">%s</text>`, float64(labelW)+math.Max(bw, 1)+6, yy+15, human(br.n))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
