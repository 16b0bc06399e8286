// Core Options structs and their ns-3 attributes agree: every listed field is an attribute of
// the object type, a fresh object's Options equal the struct's defaults, and setting an
// attribute (as a string, like --ns3::Type::Attr=value) changes exactly that Options member.

#include "ns3/ndnlab/tests/sim-fixture.hpp"

#include "ns3/ndnlab/apps/constant-rate-consumer-app.hpp"
#include "ns3/ndnlab/apps/one-interest-apps.hpp"
#include "ns3/ndnlab/apps/perf-apps.hpp"
#include "ns3/ndnlab/apps/stream-apps.hpp"
#include "ns3/ndnlab/model/options-attributes.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ndnlab::sim::test {
namespace {

/// Serialized value of every field of `o`, by attribute name.
template<typename Options>
std::map<std::string, std::string> snapshot(const std::vector<OptionField<Options>>& fields, const Options& o)
{
  std::map<std::string, std::string> m;
  for (const auto& f : fields)
    m[f.name] = f.value(o)->SerializeToString(f.checker);
  return m;
}

template<typename Options>
void checkType(const std::string& typeName, const std::vector<OptionField<Options>>& fields,
               const std::function<ns3::Ptr<ns3::Object>()>& create,
               const std::function<const Options&(ns3::Object&)>& opts,
               const std::map<std::string, std::string>& changes)
{
  SCOPED_TRACE(typeName);
  ns3::TypeId tid = ns3::TypeId::LookupByName(typeName);
  const Options defaults{};

  // every field is an attribute, with the Options default as its initial value
  for (const auto& f : fields) {
    ns3::TypeId::AttributeInformation info;
    ASSERT_TRUE(tid.LookupAttributeByName(f.name, &info)) << f.name;
    EXPECT_EQ(info.initialValue->SerializeToString(info.checker), f.value(defaults)->SerializeToString(f.checker))
      << f.name;
  }

  // a fresh object's Options equal the defaults, read back through the attribute system too
  ns3::Ptr<ns3::Object> obj = create();
  EXPECT_EQ(snapshot(fields, opts(*obj)), snapshot(fields, defaults));
  for (const auto& f : fields) {
    ns3::StringValue v;
    // GetAttribute into a StringValue serializes with the attribute's checker
    obj->GetAttribute(f.name, v);
    EXPECT_EQ(v.Get(), f.value(defaults)->SerializeToString(f.checker)) << f.name;
  }

  // setting one attribute changes exactly one member
  for (const auto& [name, value] : changes) {
    ns3::Ptr<ns3::Object> o = create();
    auto before = snapshot(fields, opts(*o));
    o->SetAttribute(name, ns3::StringValue(value));
    auto after = snapshot(fields, opts(*o));
    for (const auto& [k, v] : before) {
      if (k == name)
        EXPECT_NE(after[k], v) << name << " did not change";
      else
        EXPECT_EQ(after[k], v) << k << " changed when setting " << name;
    }
  }
}

class OptionFieldsTest : public SimTest
{};

TEST_F(OptionFieldsTest, ConsumerAppMirrorsSegmentFetcherOptions)
{
  registerTypes();
  checkType<app::SegmentFetcherOptions>(
    "ndnlab::ConsumerApp", fetcherFields(), [] { return ns3::CreateObject<ConsumerApp>(); },
    [](ns3::Object& o) -> const app::SegmentFetcherOptions& { return dynamic_cast<ConsumerApp&>(o).GetOptions(); },
    {{"Pipeline", "aimd"},
     {"RtoK", "4"},
     {"InitCwnd", "10"},
     {"MinRto", "100ms"},
     {"MaxRto", "2s"},
     {"Lifetime", "1s"},
     {"Retries", "-1"},
     {"VersionDiscovery", "none"},
     {"MaxInFlight", "64"},
     {"MustBeFresh", "true"}});

  // the attribute names the experiments use exist
  for (std::string n : {"Prefix", "Pipeline", "RtoK", "InitCwnd", "MinRto", "MaxRto", "Lifetime", "Retries",
                        "ExpectedSize", "StartTime", "VersionDiscovery"}) {
    ns3::TypeId::AttributeInformation info;
    EXPECT_TRUE(ConsumerApp::GetTypeId().LookupAttributeByName(n, &info)) << n;
  }
  // the converted values are the ones the fetcher gets
  auto app = ns3::CreateObject<ConsumerApp>();
  app->SetAttribute("MinRto", ns3::StringValue("150ms"));
  app->SetAttribute("InitCwnd", ns3::StringValue("3.5"));
  EXPECT_EQ(app->GetOptions().rtt.minRto, std::chrono::milliseconds(150));
  EXPECT_EQ(app->GetOptions().window.initCwnd, 3.5);
  // out of the member's range: refused, the member keeps its value
  EXPECT_FALSE(app->SetAttributeFailSafe("Retries", ns3::StringValue("99999999999")));
  EXPECT_EQ(app->GetOptions().retries, app::SegmentFetcherOptions{}.retries);
  EXPECT_FALSE(app->SetAttributeFailSafe("VersionDiscovery", ns3::StringValue("sometimes")));
  EXPECT_EQ(app->GetOptions().discovery, app::VersionDiscovery::Rdr);
}

TEST_F(OptionFieldsTest, ProducerAppsMirrorServerOptions)
{
  registerTypes();
  checkType<app::SegmentServerOptions>(
    "ndnlab::ProducerApp", serverFields(), [] { return ns3::CreateObject<ProducerApp>(); },
    [](ns3::Object& o) -> const app::SegmentServerOptions& { return dynamic_cast<ProducerApp&>(o).GetOptions(); },
    {{"PayloadSize", "1460"}, {"Freshness", "1s"}, {"Version", "5"}, {"NackUnsatisfiable", "false"}});
  checkType<app::PushProducerOptions>(
    "ndnlab::OneInterestProducerApp", pushProducerFields(), [] { return ns3::CreateObject<OneInterestProducerApp>(); },
    [](ns3::Object& o) -> const app::PushProducerOptions& {
      return dynamic_cast<OneInterestProducerApp&>(o).GetOptions();
    },
    {{"PayloadSize", "1460"}, {"PollInterval", "2ms"}, {"MaxBurst", "4"}});
}

TEST_F(OptionFieldsTest, OtherAppsAndStack)
{
  registerTypes();
  checkType<app::PushConsumerOptions>(
    "ndnlab::OneInterestConsumerApp", pushConsumerFields(), [] { return ns3::CreateObject<OneInterestConsumerApp>(); },
    [](ns3::Object& o) -> const app::PushConsumerOptions& {
      return dynamic_cast<OneInterestConsumerApp&>(o).GetOptions();
    },
    {{"IdleTimeout", "50ms"}, {"RepairWindow", "3"}});
  checkType<app::ConstantRateConsumerOptions>(
    "ndnlab::ConstantRateConsumerApp", constantRateFields(),
    [] { return ns3::CreateObject<ConstantRateConsumerApp>(); },
    [](ns3::Object& o) -> const app::ConstantRateConsumerOptions& {
      return dynamic_cast<ConstantRateConsumerApp&>(o).GetOptions();
    },
    {{"Frequency", "100"}, {"Randomize", "exponential"}, {"MaxCount", "10"}});
  checkType<app::PerfServerOptions>(
    "ndnlab::PerfProducerApp", perfServerFields(), [] { return ns3::CreateObject<PerfProducerApp>(); },
    [](ns3::Object& o) -> const app::PerfServerOptions& { return dynamic_cast<PerfProducerApp&>(o).GetOptions(); },
    {{"MaxPayload", "1200"}, {"Freshness", "2s"}, {"MaxSessions", "7"}});
  checkType<app::PerfClientOptions>(
    "ndnlab::PerfConsumerApp", perfClientFields(), [] { return ns3::CreateObject<PerfConsumerApp>(); },
    [](ns3::Object& o) -> const app::PerfClientOptions& { return dynamic_cast<PerfConsumerApp&>(o).GetOptions(); },
    {{"Duration", "3s"}, {"Bytes", "1000"}, {"Parallel", "4"}, {"BitRate", "1000000"}});
  checkType<app::SegmentFetcherOptions>(
    "ndnlab::PerfConsumerApp", fetcherFields(), [] { return ns3::CreateObject<PerfConsumerApp>(); },
    [](ns3::Object& o) -> const app::SegmentFetcherOptions& {
      return dynamic_cast<PerfConsumerApp&>(o).GetOptions().fetch;
    },
    {{"Pipeline", "aimd"}, {"Lifetime", "1s"}});
  checkType<stream::StreamProducerOptions>(
    "ndnlab::StreamProducerApp", streamProducerFields(), [] { return ns3::CreateObject<StreamProducerApp>(); },
    [](ns3::Object& o) -> const stream::StreamProducerOptions& {
      return dynamic_cast<StreamProducerApp&>(o).GetOptions();
    },
    {{"PayloadSize", "8000"}, {"ParityRatio", "0"}, {"KeyFreshness", "1s"}, {"Stream", "mic"}});
  checkType<stream::StreamConsumerOptions>(
    "ndnlab::StreamConsumerApp", streamConsumerFields(), [] { return ns3::CreateObject<StreamConsumerApp>(); },
    [](ns3::Object& o) -> const stream::StreamConsumerOptions& {
      return dynamic_cast<StreamConsumerApp&>(o).GetOptions();
    },
    {{"InitialPipeline", "5"}, {"Stability", "high"}, {"InitialDrd", "100ms"}, {"Adaptive", "true"}});
  checkType<fw::ForwarderOptions>(
    "ndnlab::NdnStack", forwarderFields(), [] { return ns3::CreateObject<NdnStack>(); },
    [](ns3::Object& o) -> const fw::ForwarderOptions& { return dynamic_cast<NdnStack&>(o).ForwarderOptionsRef(); },
    {{"CsSize", "10"},
     {"PitMaxEntries", "100"},
     {"UnsolicitedDataPolicy", "admit-all"},
     {"DefaultStrategy", "/localhost/nfd/strategy/multicast"}});
  checkType<face::LinkServiceOptions>(
    "ndnlab::NdnStack", linkServiceFields(), [] { return ns3::CreateObject<NdnStack>(); },
    [](ns3::Object& o) -> const face::LinkServiceOptions& {
      return dynamic_cast<NdnStack&>(o).LinkServiceOptionsRef();
    },
    {{"LpMaxFragments", "10"},
     {"LpCongestionMarking", "true"},
     {"LpBundleLossDetection", "true"},
     {"LpBundleGapMin", "5ms"},
     {"LpBundleDynamicInterval", "true"},
     {"LpBundleCwndShare", "0.25"}});
}

TEST_F(OptionFieldsTest, StackOptionsReachTheForwarder)
{
  ns3::NodeContainer nodes;
  nodes.Create(1);
  StackHelper stack;
  stack.SetCsSize(7);
  stack.SetStackAttribute("PitMaxEntries", ns3::UintegerValue(99));
  stack.Install(nodes);
  auto s = nodes.Get(0)->GetObject<NdnStack>();
  EXPECT_EQ(s->GetForwarder().options().csCapacity, 7u);
  EXPECT_EQ(s->GetForwarder().options().pitMaxEntries, 99u);
}

} // namespace
} // namespace ndnlab::sim::test

namespace ndnlab::sim::test {
namespace {

/// An attribute value as a user writes it: a Time in the largest whole unit ("500ms", "6s").
std::string valueText(const ns3::AttributeValue& v, ns3::Ptr<const ns3::AttributeChecker> checker)
{
  if (const auto* t = dynamic_cast<const ns3::TimeValue*>(&v)) {
    const int64_t ns = t->Get().GetNanoSeconds();
    for (auto [unit, scale] :
         {std::pair{"s", int64_t(1'000'000'000)}, {"ms", int64_t(1'000'000)}, {"us", int64_t(1'000)}}) {
      if (ns != 0 && ns % scale == 0)
        return std::to_string(ns / scale) + unit;
    }
    return std::to_string(ns) + "ns";
  }
  return v.SerializeToString(checker);
}

/// The Markdown table of a type's own attributes and trace sources, as docs/mechanisms/ns3.md
/// shows it: name, initial value, help.
std::string attributeTable(const std::string& typeName)
{
  auto cell = [](std::string s) {
    std::string out;
    for (char c : s)
      out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
  };
  ns3::TypeId tid = ns3::TypeId::LookupByName(typeName);
  std::string t = "| attribute | default | meaning |\n|---|---|---|\n";
  for (uint32_t i = 0; i < tid.GetAttributeN(); ++i) {
    ns3::TypeId::AttributeInformation a = tid.GetAttribute(i);
    t += "| " + a.name + " | `" + valueText(*a.initialValue, a.checker) + "` | " + cell(a.help) + " |\n";
  }
  for (uint32_t i = 0; i < tid.GetTraceSourceN(); ++i) {
    ns3::TypeId::TraceSourceInformation s = tid.GetTraceSource(i);
    t += "| trace source " + s.name + " | | " + cell(s.help) + " |\n";
  }
  return t;
}

TEST_F(OptionFieldsTest, AttributeTablesInDocsAreTheGeneratedOnes)
{
  // every attribute's name, default and help as the TypeIds declare them (the Options-derived
  // ones from the core's field lists), so the docs cannot drift from the code
  registerTypes();
  // this file is ns3/ndnlab/tests/option-fields.t.cpp of the source tree
  const auto root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
  std::ifstream in(root / "docs" / "mechanisms" / "ns3.md");
  ASSERT_TRUE(in);
  std::stringstream docs;
  docs << in.rdbuf();
  for (const char* type :
       {"ndnlab::NdnStack", "ndnlab::NetDeviceTransport", "ndnlab::ConsumerApp", "ndnlab::ProducerApp",
        "ndnlab::OneInterestConsumerApp", "ndnlab::OneInterestProducerApp", "ndnlab::ConstantRateConsumerApp",
        "ndnlab::PingClientApp", "ndnlab::PingServerApp", "ndnlab::PerfProducerApp", "ndnlab::PerfConsumerApp",
        "ndnlab::StreamProducerApp", "ndnlab::StreamConsumerApp"}) {
    const std::string table = "### " + std::string(type) + "\n\n" + attributeTable(type);
    EXPECT_NE(docs.str().find(table), std::string::npos)
      << "docs/mechanisms/ns3.md is out of date; the section should read:\n"
      << table;
  }
}

} // namespace
} // namespace ndnlab::sim::test
