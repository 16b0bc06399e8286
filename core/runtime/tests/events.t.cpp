#include "core/runtime/env.hpp"
#include "core/runtime/events.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace ndnlab {
namespace {

bool isSnakeCase(std::string_view s)
{
  if (s.empty() || s.front() == '_' || s.back() == '_')
    return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

TEST(Events, EveryNameIsSnakeCaseUniqueAndParsesBack)
{
  std::set<std::string_view> seen;
  for (const EventInfo& e : eventCatalogue()) {
    EXPECT_TRUE(isSnakeCase(e.name)) << e.name;
    EXPECT_TRUE(seen.insert(e.name).second) << "duplicate kind " << e.name;
    EXPECT_EQ(parseEventKind(e.name), e.kind);
    EXPECT_EQ(toString(e.kind), e.name);
    EXPECT_FALSE(e.doc.empty()) << e.name;
  }
  seen.clear();
  for (const DropReasonInfo& d : dropReasonCatalogue()) {
    EXPECT_TRUE(isSnakeCase(d.name)) << d.name;
    EXPECT_TRUE(seen.insert(d.name).second) << "duplicate drop reason " << d.name;
    EXPECT_EQ(parseDropReason(d.name), d.reason);
    EXPECT_FALSE(d.doc.empty()) << d.name;
  }
  seen.clear();
  for (const CloseReasonInfo& c : closeReasonCatalogue()) {
    EXPECT_TRUE(isSnakeCase(c.name)) << c.name;
    EXPECT_TRUE(seen.insert(c.name).second) << "duplicate close reason " << c.name;
    EXPECT_EQ(parseCloseReason(c.name), c.reason);
  }
  EXPECT_EQ(parseEventKind("no_such_kind"), std::nullopt);
  EXPECT_EQ(parseDropReason("net-invalid"), std::nullopt); // one spelling only
}

TEST(Events, DropKindsAreTheOnesCountedAsDrops)
{
  for (EventKind k :
       {EventKind::Drop, EventKind::ImpairDrop, EventKind::IoDrop, EventKind::DevDrop, EventKind::FaceClose})
    EXPECT_TRUE(info(k).isDrop) << toString(k);
  for (EventKind k : {EventKind::InterestIn, EventKind::DataOut, EventKind::FetchData, EventKind::BundleOut})
    EXPECT_FALSE(info(k).isDrop) << toString(k);
}

TEST(Events, DropAndCloseEventsCarryTheCatalogueName)
{
  TraceEvent d = TraceEvent::dropped(EventKind::IoDrop, 7, DropReason::TooManyFacesPerAddress, 40);
  EXPECT_EQ(d.kind, EventKind::IoDrop);
  EXPECT_EQ(d.face, 7u);
  EXPECT_EQ(d.reason, "too_many_faces_per_address");
  EXPECT_EQ(d.value, 40);
  TraceEvent c = TraceEvent::closed(9, CloseReason::IdleTimeout);
  EXPECT_EQ(c.kind, EventKind::FaceClose);
  EXPECT_EQ(c.reason, "idle_timeout");
}

TEST(Events, DocsTablesAreTheGeneratedOnes)
{
  std::ifstream in(std::string(NDNLAB_SOURCE_DIR) + "/docs/events.md");
  ASSERT_TRUE(in) << "docs/events.md missing";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find(eventTables()), std::string::npos)
    << "docs/events.md is out of date: paste the tables `ndnlabd --print-event-table` prints:\n"
    << eventTables();
}

} // namespace
} // namespace ndnlab
