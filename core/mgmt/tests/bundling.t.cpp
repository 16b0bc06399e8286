// BLEnD through management: faces/update changes a face's medium, bundling flag and bundle
// interval; faces/list carries the ndnlab extension (Medium, BundleInterval, BundleCounters)
// only for faces where bundling is in play; ControlParameters and FaceStatus round trips.

#include "core/mgmt/tests/management-fixture.hpp"

namespace ndnlab::mgmt {
namespace {

using namespace test;

TEST(BundlingParameters, ControlParametersRoundTrip)
{
  ControlParameters cp;
  cp.faceId = 300;
  cp.flags = FaceFlagBundling;
  cp.mask = FaceFlagBundling;
  cp.medium = 1;
  cp.bundleInterval = 15;
  Buffer wire = cp.wireEncode();
  auto back = ControlParameters::decode(wire);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, cp);
  // the extension elements are non-critical (even), so NFD-style decoders skip them
  EXPECT_FALSE(ndnlab::tlv::isCritical(tlv::Medium));
  EXPECT_FALSE(ndnlab::tlv::isCritical(tlv::BundleInterval));
  EXPECT_FALSE(ndnlab::tlv::isCritical(tlv::BundleCounters));
}

TEST(BundlingParameters, FaceStatusRoundTrip)
{
  FaceStatus s;
  s.faceId = 260;
  s.remoteUri = "udp4://10.0.0.2:6363";
  s.localUri = "udp4://10.0.0.1:6363";
  s.flags = FaceFlagBundling;
  s.medium = 1;
  s.bundleInterval = 15;
  s.bundleCounters = BundleCounters{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  Buffer wire;
  s.encodeTo(wire);
  auto back = FaceStatus::decode(wire);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, s);
}

class BundlingManagementTest : public ManagementTest
{
protected:
  void sendTaggedInterests(face::FaceId id, uint64_t n)
  {
    face::Face* f = forwarder.faceTable().get(id);
    for (uint64_t s = 0; s < n; ++s) {
      Name name("/b");
      name.appendSegment(s);
      Interest i(name);
      i.setNonce(static_cast<uint32_t>(s + 1));
      i.tags.bundle = BundleTag{false, 20};
      f->sendInterest(i);
    }
  }
};

TEST_F(BundlingManagementTest, UpdateChangesOnlyTheBundlingSettings)
{
  Client c = addFace();
  Client radio = addFace(FaceScope::NonLocal);
  face::Face* f = forwarder.faceTable().get(radio.id);

  auto r = command(
    c, "faces", "update",
    ControlParameters{
      .faceId = radio.id, .flags = FaceFlagBundling, .mask = FaceFlagBundling, .medium = 1, .bundleInterval = 9});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, 200u) << r->text;
  EXPECT_EQ(f->transport().medium(), face::Medium::Wireless);
  EXPECT_TRUE(f->linkService().options().bundling);
  EXPECT_EQ(f->linkService().options().bundler.bundleInterval, 9u);
  EXPECT_TRUE(static_cast<face::GenericLinkService&>(f->linkService()).isBundlingActive());
  auto body = ControlParameters::decode(r->body);
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(body->faceId, radio.id);
  EXPECT_EQ(body->medium, 1u);
  EXPECT_EQ(body->bundleInterval, 9u);
  EXPECT_TRUE(*body->flags & FaceFlagBundling);

  // bundling off; medium and BI stay
  r = command(c, "faces", "update", ControlParameters{.faceId = radio.id, .flags = 0, .mask = FaceFlagBundling});
  ASSERT_EQ(r->code, 200u);
  EXPECT_FALSE(f->linkService().options().bundling);
  EXPECT_EQ(f->linkService().options().bundler.bundleInterval, 9u);
  EXPECT_EQ(f->transport().medium(), face::Medium::Wireless);

  // FaceId 0: the requesting face
  r = command(c, "faces", "update", ControlParameters{.medium = 1});
  ASSERT_EQ(r->code, 200u);
  EXPECT_EQ(forwarder.faceTable().get(c.id)->transport().medium(), face::Medium::Wireless);

  EXPECT_EQ(command(c, "faces", "update", ControlParameters{.faceId = radio.id, .mtu = 1000})->code, 406u);
  EXPECT_EQ(
    command(c, "faces", "update", ControlParameters{.faceId = radio.id, .flags = 1, .mask = FaceFlagLocalFields})->code,
    406u);
  EXPECT_EQ(command(c, "faces", "update", ControlParameters{.faceId = 99999})->code, 404u);
  EXPECT_EQ(command(c, "faces", "update", ControlParameters{.faceId = radio.id, .flags = 1})->code, 400u);
  EXPECT_EQ(command(c, "faces", "update", ControlParameters{.faceId = radio.id, .medium = 2})->code, 400u);
  EXPECT_EQ(command(c, "faces", "update", ControlParameters{.faceId = radio.id, .bundleInterval = 300})->code, 400u);
}

TEST_F(BundlingManagementTest, FacesListExtensionOnlyWhereBundlingIsInPlay)
{
  Client c = addFace();
  Client radio = addFace(FaceScope::NonLocal);
  FaceStatus before = faceStatus(c, radio.id);
  EXPECT_FALSE(before.medium);
  EXPECT_FALSE(before.bundleInterval);
  EXPECT_FALSE(before.bundleCounters);
  EXPECT_FALSE(before.flags & FaceFlagBundling);
  EXPECT_FALSE(faceStatus(c, c.id).bundleCounters);

  ASSERT_EQ(
    command(c, "faces", "update",
            ControlParameters{.faceId = radio.id, .flags = FaceFlagBundling, .mask = FaceFlagBundling, .medium = 1})
      ->code,
    200u);
  sendTaggedInterests(radio.id, 5); // one bundle, four absorbed
  FaceStatus after = faceStatus(c, radio.id);
  EXPECT_EQ(after.medium, 1u);
  EXPECT_EQ(after.bundleInterval, 15u);
  EXPECT_TRUE(after.flags & FaceFlagBundling);
  ASSERT_TRUE(after.bundleCounters);
  EXPECT_EQ(after.bundleCounters->nOutBundles, 1u);
  EXPECT_EQ(after.bundleCounters->nOutInterestsAbsorbed, 4u);
  EXPECT_EQ(after.nOutInterests, 5u);
  EXPECT_EQ(radio.transport->sent.size(), 1u);
}

} // namespace
} // namespace ndnlab::mgmt
