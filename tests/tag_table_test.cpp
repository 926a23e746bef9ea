// TagTable (sim/src/engine/tag_table.hpp, issue 33 item 3): one worker's record tags, dense in
// first-seen order, each with its TagInfo and the launch's site id from the shared SiteTable;
// the inline append's cache (ThreadCtx::tags_) holds each tag the table made.
#include <gtest/gtest.h>

#include <source_location>

#include "engine/tag_table.hpp"

namespace tgsim::detail {
namespace {

TEST(TagTable, DenseTagsInFirstSeenOrderWithTheLaunchSiteIds) {
  SiteTable sites;
  const std::source_location a = std::source_location::current();
  const std::source_location b = std::source_location::current();
  const std::uint32_t b_site = sites.id(b, SiteKind::kGlobalLoad);  // another worker met b first
  TagTable tags(sites);
  const std::uint64_t ta = tags.tag(a, SiteKind::kSharedLoad, 4);
  EXPECT_EQ(ta >> kTagShift, 0u);
  EXPECT_EQ(tags.tag(b, SiteKind::kGlobalLoad, 8) >> kTagShift, 1u);
  EXPECT_EQ(tags.tag(a, SiteKind::kSharedLoad, 4), ta);  // the same triple: the same tag
  EXPECT_EQ(tags.tag(a, SiteKind::kSharedLoad, 8) >> kTagShift, 2u);  // another width
  ASSERT_EQ(tags.size(), 3u);
  EXPECT_EQ(tags[0].site, tags[2].site);  // one site, two widths
  EXPECT_EQ(tags[1].site, b_site);
  EXPECT_EQ(tags[1].kind, SiteKind::kGlobalLoad);
  EXPECT_EQ(tags[1].width, 8u);
  EXPECT_TRUE(tags[0].shared_word_load);
  EXPECT_FALSE(tags[2].shared_word_load);  // 8 bytes: not a word
  EXPECT_EQ(tags.infos().size(), 3u);
  EXPECT_EQ(tags.site_id(b, SiteKind::kBarrier), sites.id(b, SiteKind::kBarrier));
}

TEST(TagTable, TheInlineCacheHoldsEachTagTheTableMade) {
  SiteTable sites;
  TagTable tags(sites);
  const std::source_location loc = std::source_location::current();
  const std::uint64_t t = tags.tag(loc, SiteKind::kGlobalStore, 4);
  const std::uint64_t key = tag_key(loc, static_cast<AccessKind>(SiteKind::kGlobalStore), 4);
  const TagSlot& e = tags.cache()[tag_slot(key)];
  EXPECT_EQ(e.key, key);
  EXPECT_EQ(e.tag, t);
}

}  // namespace
}  // namespace tgsim::detail
