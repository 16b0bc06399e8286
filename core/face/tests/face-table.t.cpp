#include "core/face/face-table.hpp"

#include "core/face/dummy-transport.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

namespace ndnlab::face::tests {
namespace {

using namespace std::chrono_literals;

class NullLinkService final : public LinkService
{
public:
  explicit NullLinkService(Env& env) : LinkService(env, {}) {}
  void sendInterest(const Interest&, EndpointId) override {}
  void sendData(const Data&, EndpointId) override {}
  void sendNack(const Nack&, EndpointId) override {}
  void attach(Transport&) override {}
};

class FaceTableTest : public ::testing::Test
{
protected:
  std::unique_ptr<Face> makeFace(DummyTransport** transport = nullptr)
  {
    auto t = std::make_unique<DummyTransport>();
    if (transport != nullptr)
      *transport = t.get();
    return std::make_unique<Face>(env, std::make_unique<NullLinkService>(env), std::move(t));
  }

  ManualEnv env;
  FaceTable table{env};
};

TEST_F(FaceTableTest, AssignsIdsFrom256NeverReused)
{
  std::vector<FaceId> added;
  table.afterAdd.connect([&](Face& f) { added.push_back(f.id()); });
  FaceId a = table.add(makeFace());
  FaceId b = table.add(makeFace());
  EXPECT_EQ(a, 256u);
  EXPECT_EQ(b, 257u);
  EXPECT_EQ(table.get(a)->id(), a);
  EXPECT_TRUE(table.remove(a));
  EXPECT_FALSE(table.remove(a));
  FaceId c = table.add(makeFace());
  EXPECT_EQ(c, 258u);
  EXPECT_EQ(added, (std::vector<FaceId>{256, 257, 258}));
  EXPECT_EQ(table.get(a), nullptr);
  EXPECT_EQ(table.size(), 2u);
}

TEST_F(FaceTableTest, ReservedIds)
{
  table.addReserved(makeFace(), InternalFaceId);
  table.addReserved(makeFace(), ContentStoreFaceId);
  table.addReserved(makeFace(), NullFaceId);
  EXPECT_NE(table.get(InternalFaceId), nullptr);
  EXPECT_THROW(table.addReserved(makeFace(), InternalFaceId), std::invalid_argument);
  EXPECT_THROW(table.addReserved(makeFace(), 0), std::invalid_argument);
  EXPECT_THROW(table.addReserved(makeFace(), 256), std::invalid_argument);
  EXPECT_THROW(table.add(nullptr), std::invalid_argument);
  EXPECT_EQ(table.add(makeFace()), 256u) << "reserved ids do not move the regular counter";
}

TEST_F(FaceTableTest, IterationInIdOrder)
{
  table.add(makeFace());
  table.addReserved(makeFace(), InternalFaceId);
  table.add(makeFace());
  std::vector<FaceId> ids;
  for (Face& f : table)
    ids.push_back(f.id());
  EXPECT_EQ(ids, (std::vector<FaceId>{1, 256, 257}));
}

TEST_F(FaceTableTest, ClosedTransportRemovesFaceOneTimerLater)
{
  DummyTransport* t = nullptr;
  FaceId id = table.add(makeFace(&t));
  std::vector<FaceId> removed;
  table.beforeRemove.connect([&](Face& f) {
    removed.push_back(f.id());
    EXPECT_EQ(table.get(f.id()), &f) << "still in the table during beforeRemove";
  });
  t->close();
  EXPECT_NE(table.get(id), nullptr) << "not destroyed inside the transport's callback";
  EXPECT_TRUE(removed.empty());
  env.advance(0ms);
  EXPECT_EQ(table.get(id), nullptr);
  EXPECT_EQ(removed, std::vector<FaceId>{id});
}

TEST_F(FaceTableTest, RemoveLaterAndDestructionCancelTimers)
{
  FaceId id = table.add(makeFace());
  table.removeLater(id);
  table.removeLater(id);
  EXPECT_EQ(env.clockImpl.pending(), 1u);
  EXPECT_TRUE(table.remove(id)) << "explicit removal cancels the pending one";
  EXPECT_EQ(env.clockImpl.pending(), 0u);

  {
    FaceTable t2(env);
    FaceId x = t2.add(makeFace());
    t2.removeLater(x);
  }
  EXPECT_EQ(env.clockImpl.pending(), 0u);
  env.advance(1ms);
}

TEST_F(FaceTableTest, SignalDisconnect)
{
  int n = 0;
  auto c = table.afterAdd.connect([&](Face&) { ++n; });
  table.add(makeFace());
  table.afterAdd.disconnect(c);
  table.add(makeFace());
  EXPECT_EQ(n, 1);
}

} // namespace
} // namespace ndnlab::face::tests
