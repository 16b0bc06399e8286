#include "core/mgmt/command.hpp"
#include "core/mgmt/tests/captures.hpp"

#include "core/lp/packet.hpp"
#include "core/runtime/manual-env.hpp"
#include "core/security/signed-interest.hpp"

#include <gtest/gtest.h>

namespace ndnlab::mgmt {
namespace {

const Name top("/localhost/nfd");

Interest decodeHex(const std::string& h, std::optional<PitToken>* token = nullptr)
{
  Buffer wire;
  EXPECT_TRUE(fromHex(h, wire));
  auto frame = lp::decodeFrame(wire);
  EXPECT_TRUE(frame.ok());
  if (token)
    *token = frame->pitToken;
  auto i = Interest::decode(*frame->fragment);
  EXPECT_TRUE(i.ok()) << (i.ok() ? "" : reasonName(i.error().code));
  return std::move(i).value();
}

TEST(Command, CaptureNdnd)
{
  Interest i = decodeHex(test::captureNdnd);
  auto cmd = parseCommand(top, i);
  ASSERT_TRUE(cmd);
  EXPECT_EQ(cmd->module, "rib");
  EXPECT_EQ(cmd->verb, "register");
  EXPECT_EQ(cmd->format, CommandFormat::SignedV03);
  ASSERT_TRUE(cmd->parameters);
  EXPECT_EQ(*cmd->parameters->name, Name("/cap/ndnd"));
  EXPECT_EQ(cmd->parameters->cost, std::optional<uint64_t>(0));
  EXPECT_FALSE(cmd->parameters->faceId);
  ASSERT_TRUE(cmd->signatureInfo);
  EXPECT_EQ(cmd->signatureInfo->time, std::optional<uint64_t>(0x1a1fcfbf63f));
  EXPECT_EQ(cmd->signatureInfo->nonce->size(), 8u);
  EXPECT_TRUE(i.mustBeFresh());

  // This capture is complete: ndnd's params digest and DigestSha256 signature verify with
  // our signed-portion rules.
  EXPECT_TRUE(i.hasValidParamsDigest());
  EXPECT_EQ(security::verifyInterest(i, security::DigestVerifier()), security::CheckResult::Ok);
}

TEST(Command, CaptureNdntsWithPitToken)
{
  std::optional<PitToken> token;
  Interest i = decodeHex(test::captureNdnts, &token);
  ASSERT_TRUE(token);
  EXPECT_EQ(toHex(token->view()), "d610ffffffff");
  auto cmd = parseCommand(top, i);
  ASSERT_TRUE(cmd);
  EXPECT_EQ(cmd->module, "rib");
  EXPECT_EQ(cmd->verb, "register");
  EXPECT_EQ(cmd->format, CommandFormat::SignedV03);
  const ControlParameters& cp = *cmd->parameters;
  EXPECT_EQ(*cp.name, Name("/interop/js"));
  EXPECT_EQ(cp.origin, std::optional<uint64_t>(65));
  EXPECT_EQ(cp.cost, std::optional<uint64_t>(0));
  EXPECT_EQ(cp.flags, std::optional<uint64_t>(2));
  EXPECT_EQ(cp.expirationPeriod, std::optional<std::chrono::milliseconds>(1'200'000));
  EXPECT_EQ(i.lifetime(), std::chrono::milliseconds(3999));
}

TEST(Command, CaptureLegacyPythonNdn)
{
  Interest i = decodeHex(test::captureLegacyPython);
  auto cmd = parseCommand(top, i);
  ASSERT_TRUE(cmd);
  EXPECT_EQ(cmd->module, "rib");
  EXPECT_EQ(cmd->verb, "register");
  EXPECT_EQ(cmd->format, CommandFormat::LegacyV02);
  EXPECT_EQ(*cmd->parameters->name, Name("/interop/pyv1"));
  EXPECT_FALSE(cmd->parameters->cost);
  ASSERT_TRUE(cmd->signatureInfo);
  EXPECT_EQ(cmd->signatureInfo->type, 0u);
  EXPECT_EQ(cmd->signatureInfo->time, std::optional<uint64_t>(0x1a1fcfd54b0));
  EXPECT_EQ(toHex(*cmd->signatureInfo->nonce), "25874c521e489f97");
  EXPECT_FALSE(i.appParameters());
}

TEST(Command, CapturePythonAppv2)
{
  Interest i = decodeHex(test::capturePythonAppv2);
  auto cmd = parseCommand(top, i);
  ASSERT_TRUE(cmd);
  EXPECT_EQ(cmd->module, "rib");
  EXPECT_EQ(cmd->verb, "register");
  EXPECT_EQ(cmd->format, CommandFormat::SignedV03);
  EXPECT_EQ(*cmd->parameters, ControlParameters{.name = Name("/interop/py")});
  EXPECT_FALSE(i.mustBeFresh());
}

TEST(Command, DatasetAndUnsignedForms)
{
  auto ds = parseCommand(top, Interest(Name("/localhost/nfd/faces/list")));
  ASSERT_TRUE(ds);
  EXPECT_EQ(ds->module, "faces");
  EXPECT_EQ(ds->verb, "list");
  EXPECT_FALSE(ds->parameters);
  EXPECT_FALSE(ds->malformedParameters);

  Name versioned("/localhost/nfd/fib/list");
  versioned.appendVersion(5).appendSegment(1);
  auto dv = parseCommand(top, Interest(versioned));
  ASSERT_TRUE(dv);
  EXPECT_FALSE(dv->parameters);
  EXPECT_FALSE(dv->malformedParameters);

  ControlParameters cp;
  cp.name = Name("/x");
  cp.faceId = 300;
  Name n = makeCommandName(top, "fib", "add-nexthop", cp);
  auto u = parseCommand(top, Interest(n));
  ASSERT_TRUE(u);
  EXPECT_EQ(u->format, CommandFormat::Unsigned);
  EXPECT_EQ(*u->parameters, cp);
  EXPECT_FALSE(u->signatureInfo);

  // Our own signers produce what the parser recognises.
  ManualEnv env;
  security::DigestSigner digest;
  security::InterestSigner signer(digest, env.clock(), env.rng());
  Interest v3(n);
  signer.sign(v3);
  auto p3 = parseCommand(top, v3);
  ASSERT_TRUE(p3);
  EXPECT_EQ(p3->format, CommandFormat::SignedV03);
  EXPECT_EQ(*p3->parameters, cp);
  Interest v2(signer.makeLegacyCommandName(n));
  auto p2 = parseCommand(top, v2);
  ASSERT_TRUE(p2);
  EXPECT_EQ(p2->format, CommandFormat::LegacyV02);
  EXPECT_EQ(*p2->parameters, cp);
}

TEST(Command, Malformed)
{
  EXPECT_EQ(parseCommand(top, Interest(Name("/localhop/nfd/rib/register"))).error(), CommandErrc::NotUnderPrefix);
  EXPECT_EQ(parseCommand(top, Interest(Name("/localhost/nfd/rib"))).error(), CommandErrc::MissingVerb);
  auto bad = parseCommand(top, Interest(Name("/localhost/nfd/rib/register/garbage")));
  ASSERT_TRUE(bad);
  EXPECT_TRUE(bad->malformedParameters);
  EXPECT_FALSE(bad->parameters);
  Name broken("/localhost/nfd/rib/register");
  broken.append(ndnlab::tlv::GenericNameComponent, Buffer{0x68, 0x05, 0x07});
  auto b2 = parseCommand(top, Interest(broken));
  ASSERT_TRUE(b2);
  EXPECT_TRUE(b2->malformedParameters);
}

} // namespace
} // namespace ndnlab::mgmt
