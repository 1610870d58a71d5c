// Package loadtest drives the engine the way `shopbot bench` needs: an
// instant scripted model served in-process over the real OpenAI wire format
// (streamed chat completions on a loopback listener, so the production
// openai-go client path is exercised), and a load generator running many
// concurrent conversations through engine.Handle, their first turns spread
// over an optional ramp.
//
// The scripted model answers a shopper's message with a search_products
// call and the tool result with a short text, optionally after a fixed
// delay that stands in for a real model's latency. The report separates
// the engine's own time per turn from the model's; ProcessCPU gives the
// CPU a run cost, which `shopbot bench` and the benchmarks divide by the
// turns (cpu_ms_per_turn, cpu-ms/turn).
//
// The engine's Go benchmarks (bench_test.go: EngineTurn, EngineThroughput
// and BareLoop, the same scripted turn through a bare openai-go loop) live
// here too, so they and `shopbot bench` share one model.
package loadtest
