// MIRCC through management: faces/update with MirccCapacity turns MIRCC on for a face (its
// link service writes MirccRate, the forwarder's regulator shapes and rates it) or off with 0;
// faces/list carries MirccCapacity and MirccRate only for such faces; round trips.

#include "core/mgmt/tests/management-fixture.hpp"

namespace ndnlab::mgmt {
namespace {

using namespace test;

TEST(MirccParameters, RoundTripsAndAreNonCritical)
{
  ControlParameters cp;
  cp.faceId = 300;
  cp.mirccCapacity = 12'000'000;
  Buffer wire = cp.wireEncode();
  auto back = ControlParameters::decode(wire);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, cp);

  FaceStatus s;
  s.faceId = 260;
  s.remoteUri = "udp4://10.0.0.2:6363";
  s.localUri = "udp4://10.0.0.1:6363";
  s.mirccCapacity = 12'000'000;
  s.mirccRate = 6'000'000;
  Buffer sw;
  s.encodeTo(sw);
  auto sback = FaceStatus::decode(sw);
  ASSERT_TRUE(sback.ok());
  EXPECT_EQ(*sback, s);
  EXPECT_FALSE(ndnlab::tlv::isCritical(tlv::MirccCapacity));
  EXPECT_FALSE(ndnlab::tlv::isCritical(tlv::MirccRate));
}

using MirccManagementTest = ManagementTest;

TEST_F(MirccManagementTest, CapacityTurnsMirccOnAndZeroTurnsItOff)
{
  Client c = addFace();
  Client up = addFace(FaceScope::NonLocal);
  face::Face* f = forwarder.faceTable().get(up.id);
  EXPECT_FALSE(faceStatus(c, up.id).mirccCapacity) << "faces/list is NFD's without MIRCC";

  auto r = command(c, "faces", "update", ControlParameters{.faceId = up.id, .mirccCapacity = 12'000'000});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, 200u) << r->text;
  EXPECT_TRUE(f->linkService().options().mircc);
  ASSERT_TRUE(forwarder.mircc().enabled(up.id));
  EXPECT_EQ(forwarder.mircc().controller(up.id)->capacity(), Rate::mbps(12));
  auto body = ControlParameters::decode(r->body);
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(body->mirccCapacity, 12'000'000u);

  FaceStatus s = faceStatus(c, up.id);
  EXPECT_EQ(s.mirccCapacity, 12'000'000u);
  EXPECT_EQ(s.mirccRate, 12'000'000u) << "R(0) = eta x C";

  r = command(c, "faces", "update", ControlParameters{.faceId = up.id, .mirccCapacity = 0});
  ASSERT_EQ(r->code, 200u);
  EXPECT_FALSE(f->linkService().options().mircc);
  EXPECT_FALSE(forwarder.mircc().enabled(up.id));
  EXPECT_FALSE(faceStatus(c, up.id).mirccCapacity);

  // below the minimum rate (10 kbit/s): refused, nothing changed
  EXPECT_EQ(command(c, "faces", "update", ControlParameters{.faceId = up.id, .mirccCapacity = 5000})->code, 400u);
  EXPECT_FALSE(forwarder.mircc().enabled(up.id));
}

} // namespace
} // namespace ndnlab::mgmt
