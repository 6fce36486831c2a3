// Replay: the collective calls in progress, one copy per distinct call (SharedCalls).
#include "replay/SharedCalls.hpp"

#include <gtest/gtest.h>

#include <memory>

using namespace mpisim;
using namespace mpisim::replay;

namespace {

std::unique_ptr<ActionDetails> allreduce(double bytes, double flops)
{
  auto details = std::make_unique<ActionDetails>();
  details->call.op = mpi::Collective::Allreduce;
  details->call.bytes = bytes;
  details->call.reduce_flops = flops;
  details->call.element_bytes = 8;
  return details;
}

} // namespace

TEST(ReplaySharedCalls, RanksMakingTheSameCallShareOneCopyUntilTheLastGivesItBack)
{
  SharedCalls calls;
  auto first = allreduce(8, 1000);
  const ActionDetails* kept = first.get();
  SharedCalls::Entry* a = calls.take(first);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(first, nullptr); // taken over
  EXPECT_EQ(a->details.get(), kept);

  auto same = allreduce(8, 1000);
  SharedCalls::Entry* b = calls.take(same);
  EXPECT_EQ(b, a);
  EXPECT_EQ(same, nullptr); // freed: the shared copy serves
  EXPECT_EQ(a->users, 2u);

  auto other_flops = allreduce(8, 2000);
  SharedCalls::Entry* c = calls.take(other_flops);
  EXPECT_NE(c, a);
  auto other_root = allreduce(8, 1000);
  other_root->call.root = 3;
  EXPECT_NE(calls.take(other_root), a);
  auto negative_zero = allreduce(-0.0, 1000); // not 0.0 bit for bit: another call
  EXPECT_NE(calls.take(negative_zero), a);
  EXPECT_EQ(calls.calls(), 4u);

  calls.give_back(a);
  EXPECT_EQ(calls.calls(), 4u);
  calls.give_back(b);
  EXPECT_EQ(calls.calls(), 3u); // the last user gave it back
  auto again = allreduce(8, 1000);
  SharedCalls::Entry* d = calls.take(again);
  EXPECT_EQ(d->users, 1u);
  EXPECT_EQ(d->details->call.bytes, 8.0);
}

TEST(ReplaySharedCalls, CallsWithPerRankArraysOrAFileStayWithTheirAction)
{
  SharedCalls calls;
  auto gatherv = std::make_unique<ActionDetails>();
  gatherv->call.op = mpi::Collective::Gatherv;
  gatherv->call.recv_counts = {8, 16, 24};
  EXPECT_EQ(calls.take(gatherv), nullptr);
  ASSERT_NE(gatherv, nullptr);
  EXPECT_EQ(gatherv->call.recv_counts.size(), 3u);
  auto with_file = allreduce(8, 0);
  with_file->file = "out.dat";
  EXPECT_EQ(calls.take(with_file), nullptr);
  EXPECT_NE(with_file, nullptr);
  EXPECT_EQ(calls.calls(), 0u);
}
