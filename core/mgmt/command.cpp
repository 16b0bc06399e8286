#include "core/mgmt/command.hpp"

#include "core/security/signed-interest.hpp"

namespace ndnlab::mgmt {

std::string_view toString(CommandFormat f)
{
  switch (f) {
    case CommandFormat::Unsigned: return "unsigned";
    case CommandFormat::SignedV03: return "signed-v0.3";
    case CommandFormat::LegacyV02: return "legacy-v0.2";
  }
  return "unknown";
}

std::string_view reasonName(CommandErrc e)
{
  switch (e) {
    case CommandErrc::NotUnderPrefix: return "not-under-prefix";
    case CommandErrc::MissingVerb: return "missing-verb";
  }
  return "unknown";
}

Result<ParsedCommand, CommandErrc> parseCommand(const Name& topPrefix, const Interest& interest)
{
  const Name& name = interest.name();
  if (!topPrefix.isPrefixOf(name))
    return fail(CommandErrc::NotUnderPrefix);
  const size_t base = topPrefix.size();
  if (name.size() < base + 2)
    return fail(CommandErrc::MissingVerb);

  ParsedCommand cmd;
  auto asString = [](ComponentRef c) {
    return std::string(reinterpret_cast<const char*>(c.value().data()), c.value().size());
  };
  cmd.module = asString(name[static_cast<ptrdiff_t>(base)]);
  cmd.verb = asString(name[static_cast<ptrdiff_t>(base + 1)]);

  const size_t cpIndex = base + 2;
  if (name.size() > cpIndex) {
    ComponentRef c = name[static_cast<ptrdiff_t>(cpIndex)];
    // A dataset Interest may carry a version/segment/digest here; only a generic component
    // holding a ControlParameters TLV counts as parameters.
    if (c.isGeneric() && !c.value().empty() && c.value()[0] == tlv::ControlParameters) {
      auto cp = ControlParameters::decode(c.value());
      if (cp)
        cmd.parameters = std::move(*cp);
      else
        cmd.malformedParameters = true;
    }
    else if (c.isGeneric()) {
      cmd.malformedParameters = true;
    }
  }

  if (interest.signatureInfo()) {
    cmd.format = CommandFormat::SignedV03;
    cmd.signatureInfo = *interest.signatureInfo();
  }
  else if (cmd.parameters && name.size() >= cpIndex + 1 + 4) {
    auto legacy = security::parseLegacyCommand(name);
    if (legacy) {
      cmd.format = CommandFormat::LegacyV02;
      cmd.signatureInfo = legacy->asInterestSignatureInfo();
    }
  }
  return cmd;
}

Name makeCommandName(const Name& topPrefix, std::string_view module, std::string_view verb,
                     const ControlParameters& parameters)
{
  Name n = topPrefix;
  n.append(module);
  n.append(verb);
  n.append(ndnlab::tlv::GenericNameComponent, parameters.wireEncode());
  return n;
}

} // namespace ndnlab::mgmt
