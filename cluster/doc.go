// Package cluster crawls one web with many processes through Redis.
package cluster
