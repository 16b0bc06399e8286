#include "core/mgmt/dispatcher.hpp"

#include "core/runtime/manual-env.hpp"
#include "core/security/signed-interest.hpp"

#include <gtest/gtest.h>

namespace ndnlab::mgmt {
namespace {

class DispatcherTest : public ::testing::Test
{
protected:
  DispatcherTest()
  {
    dispatcher.sendData = [this](Data&& d) { sent.push_back(std::move(d)); };
    dispatcher.addCommand("test", "echo",
                          [](const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done) {
                            ControlParameters out = p;
                            out.faceId = ctx.incomingFaceId;
                            done(ControlResponse(status::Ok, "OK", out));
                          });
    dispatcher.addCommand("test", "later",
                          [this](const ControlParameters&, const RequestContext&, Dispatcher::CommandDone done) {
                            pending = std::move(done);
                          });
    dispatcher.addDataset("test", "list", [this](const RequestContext&) { return datasetContent; });
  }

  Interest command(std::string_view verb, const ControlParameters& cp)
  {
    return Interest(makeCommandName(Name("/localhost/nfd"), "test", verb, cp));
  }

  ControlResponse lastResponse()
  {
    EXPECT_FALSE(sent.empty());
    auto r = ControlResponse::decode(sent.back().content());
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : ControlResponse();
  }

  ManualEnv env;
  Dispatcher dispatcher{env};
  std::vector<Data> sent;
  Dispatcher::CommandDone pending;
  Buffer datasetContent;
};

TEST_F(DispatcherTest, CommandReplyFormat)
{
  ControlParameters cp;
  cp.name = Name("/x");
  Interest i = command("echo", cp);
  i.tags.incomingFaceId = 300;
  PitToken token;
  token.size = 3;
  token.bytes = {1, 2, 3};
  i.tags.pitToken = token;
  dispatcher.onInterest(i);

  ASSERT_EQ(sent.size(), 1u);
  const Data& d = sent[0];
  EXPECT_EQ(d.name(), i.name());
  EXPECT_EQ(d.contentType(), 0u);
  EXPECT_EQ(d.freshnessPeriod(), std::chrono::seconds(1));
  EXPECT_EQ(d.signatureInfo().type, 0u);
  EXPECT_TRUE(security::verifyData(d, security::DigestVerifier()));
  ASSERT_TRUE(d.tags.pitToken);
  EXPECT_EQ(*d.tags.pitToken, token);
  EXPECT_TRUE(d.tags.noCache);

  ControlResponse r = lastResponse();
  EXPECT_EQ(r.code, 200u);
  EXPECT_EQ(r.text, "OK");
  EXPECT_EQ(r.bodyParameters()->faceId, std::optional<uint64_t>(300));
  EXPECT_EQ(*r.bodyParameters()->name, Name("/x"));
  EXPECT_EQ(dispatcher.counters().nCommands, 1u);
}

TEST_F(DispatcherTest, UnknownModuleAndVerb)
{
  dispatcher.onInterest(Interest(makeCommandName(Name("/localhost/nfd"), "nosuch", "x", {})));
  EXPECT_EQ(lastResponse().code, 501u);
  EXPECT_EQ(lastResponse().text, "Unknown module");
  dispatcher.onInterest(command("nosuch", {}));
  EXPECT_EQ(lastResponse().code, 501u);
  EXPECT_EQ(lastResponse().text, "Unknown verb");
  // Not under the prefix, or no verb: no reply at all.
  dispatcher.onInterest(Interest(Name("/localhop/nfd/test/echo")));
  dispatcher.onInterest(Interest(Name("/localhost/nfd/test")));
  EXPECT_EQ(sent.size(), 2u);
  EXPECT_EQ(dispatcher.counters().nDropped, 2u);
  EXPECT_EQ(env.traceImpl.count(EventKind::Drop, DropReason::MgmtNotUnderPrefix), 1u);
  EXPECT_EQ(env.traceImpl.count(EventKind::Drop, DropReason::MgmtMissingVerb), 1u);
}

TEST_F(DispatcherTest, MissingOrMalformedParameters)
{
  dispatcher.onInterest(Interest(Name("/localhost/nfd/test/echo")));
  EXPECT_EQ(lastResponse().code, 400u);
  dispatcher.onInterest(Interest(Name("/localhost/nfd/test/echo/junk")));
  EXPECT_EQ(lastResponse().code, 400u);
  EXPECT_EQ(sent.size(), 2u);
}

TEST_F(DispatcherTest, AsynchronousDoneOnce)
{
  dispatcher.onInterest(command("later", {}));
  EXPECT_TRUE(sent.empty());
  ASSERT_TRUE(pending);
  pending(ControlResponse(status::Conflict, "exists"));
  pending(ControlResponse(status::Ok, "again")); // ignored
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(lastResponse().code, 409u);
}

TEST_F(DispatcherTest, DatasetSegmentation)
{
  datasetContent.resize(20000);
  for (size_t i = 0; i < datasetContent.size(); ++i)
    datasetContent[i] = static_cast<uint8_t>(i * 7);
  Interest i(Name("/localhost/nfd/test/list"));
  i.setCanBePrefix(true);
  i.setMustBeFresh(true);
  dispatcher.onInterest(i);
  ASSERT_EQ(sent.size(), 1u);
  Data seg0 = sent[0];
  ASSERT_EQ(seg0.name().size(), 6u);
  EXPECT_TRUE(seg0.name()[-2].isVersion());
  EXPECT_EQ(*seg0.name()[-2].toNumber(), static_cast<uint64_t>(env.clock().unixNow().count()));
  EXPECT_EQ(*seg0.name()[-1].toNumber(), 0u);
  EXPECT_TRUE(i.matchesData(seg0));
  EXPECT_EQ(seg0.content().size(), 8000u);
  EXPECT_EQ(seg0.freshnessPeriod(), std::chrono::seconds(1));
  EXPECT_FALSE(seg0.finalBlockId());

  // Fetch the rest from storage.
  Buffer all(seg0.content().begin(), seg0.content().end());
  for (uint64_t s = 1; s < 3; ++s) {
    Name n = seg0.name().getPrefix(-1);
    n.appendSegment(s);
    dispatcher.onInterest(Interest(n));
    ASSERT_EQ(sent.size(), s + 1);
    EXPECT_EQ(sent.back().name(), n);
    all.insert(all.end(), sent.back().content().begin(), sent.back().content().end());
  }
  EXPECT_EQ(sent.back().finalBlockSegment(), std::optional<uint64_t>(2));
  EXPECT_EQ(all, datasetContent);

  // A second generation gets a newer version even at the same clock reading.
  dispatcher.onInterest(i);
  EXPECT_GT(*sent.back().name()[-2].toNumber(), *seg0.name()[-2].toNumber());

  // Storage expires after 1 s: later segment Interests are not answered.
  env.advance(std::chrono::milliseconds(1001));
  EXPECT_EQ(dispatcher.storageBytes(), 0u);
  size_t before = sent.size();
  Name n = seg0.name().getPrefix(-1);
  n.appendSegment(1);
  dispatcher.onInterest(Interest(n));
  EXPECT_EQ(sent.size(), before);
  EXPECT_EQ(env.traceImpl.count(EventKind::Drop, DropReason::MgmtSegmentNotStored), 1u);
}

TEST_F(DispatcherTest, EmptyDatasetHasOneSegment)
{
  dispatcher.onInterest(Interest(Name("/localhost/nfd/test/list")));
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_TRUE(sent[0].content().empty());
  EXPECT_EQ(sent[0].finalBlockSegment(), std::optional<uint64_t>(0));
}

TEST_F(DispatcherTest, RefusedDatasetIsANackControlResponse)
{
  dispatcher.addDataset("test", "query", [](const RequestContext&) -> Result<Buffer, ControlResponse> {
    return fail(ControlResponse(status::BadRequest, "Malformed filter"));
  });
  Interest i(Name("/localhost/nfd/test/query/x"));
  i.setCanBePrefix(true);
  dispatcher.onInterest(i);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].name(), i.name()) << "named by the request, not versioned";
  EXPECT_EQ(sent[0].contentType(), static_cast<uint64_t>(ContentType::Nack));
  EXPECT_EQ(lastResponse().code, 400u);
  EXPECT_EQ(lastResponse().text, "Malformed filter");
  EXPECT_EQ(dispatcher.counters().nDatasetErrors, 1u);
  EXPECT_EQ(dispatcher.storageBytes(), 0u) << "nothing stored for a refusal";
}

TEST(DispatcherVerify, RejectsUnsignedBadAndReplayed)
{
  ManualEnv env;
  DispatcherOptions opts;
  opts.verifyCommands = true;
  Dispatcher dispatcher(env, opts);
  std::vector<Data> sent;
  dispatcher.sendData = [&](Data&& d) { sent.push_back(std::move(d)); };
  dispatcher.addCommand("test", "echo",
                        [](const ControlParameters& p, const RequestContext&, Dispatcher::CommandDone done) {
                          done(ControlResponse(status::Ok, "OK", p));
                        });
  Buffer key(32, 0x11);
  security::HmacVerifier verifier(key);
  dispatcher.setVerifier(&verifier);
  auto code = [&] { return ControlResponse::decode(sent.back().content())->code; };

  Name cmd = makeCommandName(Name("/localhost/nfd"), "test", "echo", {});
  dispatcher.onInterest(Interest(cmd));
  EXPECT_EQ(code(), 403u);

  security::HmacSigner good(key, Name("/admin"));
  security::InterestSigner signer(good, env.clock(), env.rng());
  Interest ok(cmd);
  signer.sign(ok);
  auto decoded = Interest::decode(ByteSpan(*ok.wireEncode()));
  ASSERT_TRUE(decoded);
  dispatcher.onInterest(*decoded);
  EXPECT_EQ(code(), 200u);
  // Replay of the same signed Interest.
  dispatcher.onInterest(*decoded);
  EXPECT_EQ(code(), 403u);

  // Legacy format with the right key passes; wrong key fails.
  Interest legacy(signer.makeLegacyCommandName(cmd));
  dispatcher.onInterest(legacy);
  EXPECT_EQ(code(), 200u);
  security::HmacSigner bad(Buffer(32, 0x22), Name("/admin"));
  security::InterestSigner badSigner(bad, env.clock(), env.rng());
  env.advance(std::chrono::seconds(1));
  dispatcher.onInterest(Interest(badSigner.makeLegacyCommandName(cmd)));
  EXPECT_EQ(code(), 403u);
  EXPECT_EQ(dispatcher.counters().nRejected, 3u);
  EXPECT_EQ(env.traceImpl.count(EventKind::MgmtRejected), 2u); // the unsigned one fails before verification
}

} // namespace
} // namespace ndnlab::mgmt
