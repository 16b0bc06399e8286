// Codec encode/decode rates. Run: build/bench/bench-codec (see docs/results/forwarder.md).
#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"

#include <benchmark/benchmark.h>

namespace ndnlab {
namespace {

Interest makeInterest()
{
  Interest i(Name("/ndnlab/bench/some/longer/name/v=1700000000000").appendSegment(12345));
  i.setNonce(0x01020304).setLifetime(std::chrono::milliseconds(1000)).setCanBePrefix(false);
  return i;
}

Data makeData(size_t payload)
{
  Data d(Name("/ndnlab/bench/some/longer/name/v=1700000000000").appendSegment(12345));
  Buffer content(payload, 0x5a);
  d.setContent(ByteSpan(content)).setFreshnessPeriod(std::chrono::seconds(10));
  d.setSignatureValue(Buffer(32, 0x11));
  return d;
}

void BM_InterestEncode(benchmark::State& state)
{
  Interest i = makeInterest();
  for (auto _ : state) {
    i.setNonce(static_cast<uint32_t>(state.iterations())); // drops the cached wire
    benchmark::DoNotOptimize(i.wireEncode());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_InterestEncode);

void BM_InterestDecode(benchmark::State& state)
{
  SharedBuffer wire = makeInterest().wireEncode();
  for (auto _ : state) {
    auto r = Interest::decode(wire);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_InterestDecode);

void BM_DataEncode(benchmark::State& state)
{
  Data d = makeData(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    d.setFreshnessPeriod(std::chrono::milliseconds(state.iterations() % 1000 + 1));
    benchmark::DoNotOptimize(d.wireEncode());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_DataEncode)->Arg(1024)->Arg(8000);

void BM_DataDecode(benchmark::State& state)
{
  SharedBuffer wire = makeData(static_cast<size_t>(state.range(0))).wireEncode();
  for (auto _ : state) {
    auto r = Data::decode(wire);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_DataDecode)->Arg(1024)->Arg(8000);

void BM_NameParseUri(benchmark::State& state)
{
  for (auto _ : state) {
    auto r = Name::parse("/ndnlab/bench/some/longer/name/v=1700000000000/seg=12345");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NameParseUri);

} // namespace
} // namespace ndnlab
