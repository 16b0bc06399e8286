#include "io/datagram-faces.hpp"
#include "io/tests/io-test-util.hpp"

#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ndnlab::io {
namespace {

/// What DatagramFaces needs of a transport: its persistency, which connect() may raise.
struct FakeTransport
{
  face::FacePersistency p = face::FacePersistency::OnDemand;
  face::FacePersistency persistency() const { return p; }
  void upgradePersistency(face::FacePersistency to)
  {
    if (to == face::FacePersistency::Permanent ||
        (to == face::FacePersistency::Persistent && p == face::FacePersistency::OnDemand))
      p = to;
  }
};

TEST(DatagramFaces, AStaleRemoveLeavesTheNewFaceOfTheRemote)
{
  DatagramFaces<std::string, FakeTransport> faces;
  FakeTransport old, replacement;
  faces.add("a", &old);
  faces.add("a", &replacement); // a new face for the remote before the old one unregistered
  faces.remove("a", &old);
  EXPECT_EQ(faces.find("a"), &replacement);
  faces.remove("a", &replacement);
  EXPECT_EQ(faces.find("a"), nullptr);
  EXPECT_EQ(faces.size(), 0u);
}

TEST(DatagramFaces, OnlyOnDemandFacesCountAndUpgradeRaisesPersistency)
{
  DatagramFaces<std::string, FakeTransport> faces;
  FakeTransport a, b{face::FacePersistency::Permanent};
  faces.add("a", &a);
  faces.add("b", &b);
  EXPECT_EQ(faces.size(), 2u);
  EXPECT_EQ(faces.onDemand(), 1u);
  EXPECT_EQ(faces.upgrade("a", face::FacePersistency::Persistent), &a);
  EXPECT_EQ(a.p, face::FacePersistency::Persistent);
  EXPECT_EQ(faces.onDemand(), 0u);
  EXPECT_EQ(faces.upgrade("c", face::FacePersistency::Persistent), nullptr);
  EXPECT_EQ(faces.all().size(), 2u);
}

TEST(OnDemandAdmission, GarbageAndFacesBeyondTheBoundAreCountedDrops)
{
  ManualEnv env;
  OnDemandAdmission admission(env, "face_system.udp.max_on_demand_faces");
  OnDemandCounters c;
  const Buffer good = test::makeInterest(5);
  const Buffer garbage{0x99, 0x03, 'a', 'b', 'c'};
  const Buffer huge = test::makeInterest(60000); // valid, above MaxNdnPacketSize

  EXPECT_FALSE(admission.admit(garbage, garbage.size(), "udp4://1.2.3.4:1", "udp4://0.0.0.0:6363", 0, 2, c));
  EXPECT_FALSE(admission.admit(huge, huge.size(), "udp4://1.2.3.4:1", "udp4://0.0.0.0:6363", 0, 2, c));
  EXPECT_TRUE(admission.admit(good, good.size(), "udp4://1.2.3.4:1", "udp4://0.0.0.0:6363", 1, 2, c));
  EXPECT_FALSE(admission.admit(good, good.size(), "udp4://1.2.3.4:2", "udp4://0.0.0.0:6363", 2, 2, c));
  EXPECT_FALSE(admission.admit(good, good.size(), "udp4://1.2.3.4:3", "udp4://0.0.0.0:6363", 2, 2, c));

  EXPECT_EQ(c.nInvalidDatagram, 1u);
  EXPECT_EQ(c.nPacketTooLarge, 1u);
  EXPECT_EQ(c.nTooManyFaces, 2u);
  EXPECT_EQ(c.nFacesCreated, 1u);
  EXPECT_EQ(env.traceImpl.count(EventKind::IoDrop, DropReason::TooManyFaces), 2u);
  EXPECT_EQ(env.traceImpl.count(EventKind::IoDrop, DropReason::InvalidDatagram), 1u);
}

} // namespace
} // namespace ndnlab::io
