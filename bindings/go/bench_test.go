package toolguard

import (
	"context"
	"testing"
	"time"
)

// The call every binding's benchmark times: Bash `git status` in
// /workspace, on the built-in policy alone.
const benchCallJSON = `{"tool":"Bash","args":{"command":"git status"},"context":{"cwd":"/workspace"}}`

// BenchmarkCheck times one decision through the binding
// (go test -run '^$' -bench Check). Besides ns/op it reports, from blocks
// of calls timed in turn, the fastest block's ns per call through Check
// (ns/check), through the C API alone with no Go in between (ns/c-api),
// and the difference: what the binding adds (ns/binding).
func BenchmarkCheck(b *testing.B) {
	benchmarkCheck(b, builtinOptions(b))
}

// BenchmarkCheckOmitRaw is BenchmarkCheck without Decision.Raw
// (Options.OmitRaw: the decision JSON is not rendered).
func BenchmarkCheckOmitRaw(b *testing.B) {
	opts := builtinOptions(b)
	opts.OmitRaw = true
	benchmarkCheck(b, opts)
}

func benchmarkCheck(b *testing.B, opts Options) {
	g := newGuard(b, opts)
	call := bash("git status")
	callJSON := []byte(benchCallJSON)
	ctx := context.Background()
	const block = 200
	bestGo, bestC := time.Duration(1<<62), time.Duration(1<<62)
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := block
		if b.N-done < n {
			n = b.N - done
		}
		start := time.Now()
		for i := 0; i < n; i++ {
			if d, err := g.Check(ctx, call); err != nil || d.Verdict != VerdictAllow {
				b.Fatalf("%v, %v", d, err)
			}
		}
		if t := time.Since(start) / time.Duration(n); n == block && t < bestGo {
			bestGo = t
		}
		done += n
		if n == block { // the same number of decisions in C alone (not counted in ns/op)
			b.StopTimer()
			start = time.Now()
			decideInC(g.c, callJSON, n)
			if t := time.Since(start) / time.Duration(n); t < bestC {
				bestC = t
			}
			b.StartTimer()
		}
	}
	if bestGo < 1<<62 && bestC < 1<<62 {
		b.ReportMetric(float64(bestGo.Nanoseconds()), "ns/check")
		b.ReportMetric(float64(bestC.Nanoseconds()), "ns/c-api")
		b.ReportMetric(float64((bestGo - bestC).Nanoseconds()), "ns/binding")
	}
}

// BenchmarkCheckParallel is BenchmarkCheck from GOMAXPROCS goroutines.
func BenchmarkCheckParallel(b *testing.B) {
	g := newGuard(b, builtinOptions(b))
	call := bash("git status")
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if d, err := g.Check(context.Background(), call); err != nil || d.Verdict != VerdictAllow {
				b.Errorf("%v, %v", d, err)
				return
			}
		}
	})
}
