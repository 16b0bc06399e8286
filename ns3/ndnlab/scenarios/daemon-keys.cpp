// ndnlabd's keys for a run's ns-3 overrides of NdnStack attributes (`ndnlab-sim ... --network`,
// read by `ndnlab emu`): an attribute that stands for a field of the forwarder's or the link
// service's Options with a daemon key (core/fw/forwarder-fields.hpp,
// core/face/link-service-fields.hpp) becomes that key, so that
// `--ns3::ndnlab::NdnStack::LpReliability=true` means the same on both backends. Every other
// override acts in ns-3 only and is listed as such.

#include "core/face/link-service-fields.hpp"
#include "core/fw/forwarder-fields.hpp"
#include "ns3/runner/scenario.hpp"

#include <ns3/boolean.h>
#include <ns3/double.h>
#include <ns3/integer.h>
#include <ns3/nstime.h>
#include <ns3/type-id.h>
#include <ns3/uinteger.h>

namespace ndnlab::sim {
namespace {

/// The daemon's value of an attribute value: durations as integer nanoseconds with their unit
/// (as the daemon reads them), strings and enums as their text.
nlohmann::json daemonValue(const ns3::AttributeValue& v, const ns3::Ptr<const ns3::AttributeChecker>& checker)
{
  if (const auto* b = dynamic_cast<const ns3::BooleanValue*>(&v))
    return b->Get();
  if (const auto* u = dynamic_cast<const ns3::UintegerValue*>(&v))
    return u->Get();
  if (const auto* i = dynamic_cast<const ns3::IntegerValue*>(&v))
    return i->Get();
  if (const auto* d = dynamic_cast<const ns3::DoubleValue*>(&v))
    return d->Get();
  if (const auto* t = dynamic_cast<const ns3::TimeValue*>(&v))
    return std::to_string(t->Get().GetNanoSeconds()) + "ns";
  return v.SerializeToString(checker);
}

nlohmann::json stackDaemonKeys(const std::map<std::string, std::string>& ns3Defaults,
                               std::vector<std::string>& simulatorOnly)
{
  nlohmann::json tables = nlohmann::json::object();
  const ns3::TypeId stack = ns3::TypeId::LookupByName("ndnlab::NdnStack");
  for (const auto& [path, value] : ns3Defaults) {
    const auto sep = path.rfind("::");
    const std::string type = path.substr(0, sep);
    const std::string name = path.substr(sep + 2);
    bool mapped = false;
    ns3::TypeId::AttributeInformation info;
    if ((type == "ndnlab::NdnStack" || type == "ns3::ndnlab::NdnStack") && stack.LookupAttributeByName(name, &info)) {
      // Config::SetDefault made the override the attribute's initial value
      auto visit = [&](const auto& f) {
        if (mapped || f.info.section.empty() || f.info.attributeName() != name)
          return;
        mapped = true;
        tables[std::string(f.info.section)][f.info.tomlKey()] = daemonValue(*info.initialValue, info.checker);
      };
      face::visitFields(std::type_identity<face::LinkServiceOptions>{}, visit);
      fw::visitFields(std::type_identity<fw::ForwarderOptions>{}, visit);
    }
    if (!mapped)
      simulatorOnly.push_back("--" + path + "=" + value);
  }
  return tables;
}

const runner::DaemonKeysRegistration reg{&stackDaemonKeys};

} // namespace
} // namespace ndnlab::sim
