// reduce_scatter "mpich_rdb": recursive doubling. Every rank keeps a whole-vector partial result. At step k (mask
// 2^k) it exchanges with rank XOR mask: it sends the blocks outside its own current subtree (aligned groups of
// `mask` ranks) and receives those outside the partner's, which it combines into its partial result. When the size
// is not a power of two, ranks whose partner does not exist get the partner subtree's data, as it was received, from
// a rank of their subtree that has it, by recursive halving. Origin: MPICH's recursive-doubling reduce_scatter (Thakur et al.
// 2005), as SimGrid's mpich_rdb.
#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

// The blocks outside the subtree [root, root + mask), as two byte ranges of the whole vector.
struct Outside {
  double before; // bytes [0, before)
  double after;  // bytes [after_offset, after_offset + after)
  double after_offset;
  double bytes() const { return before + after; }
};

Outside outside(const std::vector<double>& displs, const std::vector<double>& counts, int root, int mask)
{
  const int size = static_cast<int>(counts.size());
  const int end = std::min(root + mask, size);
  const double whole = displs[size - 1] + counts[size - 1];
  const double after_offset = end < size ? displs[end] : whole;
  const double before = root < size ? displs[root] : whole;
  return {before, whole - after_offset, after_offset};
}

void pack(const Outside& o, const std::byte* whole, std::byte* out)
{
  coll::copy(out, whole, o.before);
  coll::copy(coll::at(out, o.before), coll::at(whole, o.after_offset), o.after);
}

// Combines packed `in` into the two ranges of `whole`; `lower` says whether `in` comes from lower ranks than
// `whole`'s contribution.
void unpack(const Outside& o, const std::byte* in, std::byte* whole, const CollectiveCall& call, bool lower)
{
  const std::pair<double, double> parts[2] = {{0, o.before}, {o.after_offset, o.after}};
  double read = 0;
  for (auto [offset, bytes] : parts) {
    std::byte* target = coll::at(whole, offset);
    std::byte* incoming = const_cast<std::byte*>(coll::at(in, read));
    if (lower)
      coll::reduce(call, incoming, target, bytes);
    else
      coll::reduce_left(call, target, incoming, bytes);
    read += bytes;
  }
}

void reduce_scatter_mpich_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const auto& counts = call.recv_counts;
  const std::vector<double> displs = coll::displacements(counts, {});
  const double whole_bytes = coll::total(counts);
  coll::Temp partial(call, whole_bytes), out(call, whole_bytes), in(call, whole_bytes);
  coll::copy(partial.data(), call.send_data, whole_bytes);
  for (int mask = 1, level = 0; mask < c.size; mask <<= 1, ++level) {
    const int dst = c.me ^ mask;
    const int dst_tree_root = (dst >> level) << level;
    const int my_tree_root = (c.me >> level) << level;
    const Outside mine = outside(displs, counts, my_tree_root, mask);
    const Outside theirs = outside(displs, counts, dst_tree_root, mask);
    bool received = false;
    if (dst < c.size) {
      pack(mine, partial.data(), out.data());
      c.rank.sendrecv(c.comm, dst, c.tag, mine.bytes(), dst, c.tag, theirs.bytes(), out.data(), in.data());
      received = true;
    }
    if (dst_tree_root + mask > c.size) {
      // Non-power-of-two: the first `completed` ranks of this subtree received the partner subtree's data; they
      // pass it on, as received, to the others by recursive halving.
      const int completed = c.size - my_tree_root - mask;
      int k = 0;
      for (int j = mask; j > 1; j >>= 1)
        ++k;
      for (int half = mask >> 1; half > 0; half >>= 1, --k) {
        const int peer = c.me ^ half;
        const int tree_root = (c.me >> k) << k;
        if (peer > c.me && c.me < tree_root + completed && peer >= tree_root + completed) {
          c.rank.send(c.comm, peer, c.tag, theirs.bytes(), in.data());
        } else if (peer < c.me && peer < tree_root + completed && c.me >= tree_root + completed) {
          c.rank.recv(c.comm, peer, c.tag, theirs.bytes(), in.data());
          received = true;
        }
      }
    }
    // Combined only now: the received data may have had to be passed on unchanged.
    if (received)
      unpack(theirs, in.data(), partial.data(), call, dst_tree_root < my_tree_root);
  }
  coll::copy(call.recv_data, partial.at(displs[c.me]), counts[c.me]);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "mpich_rdb", "recursive doubling",
                                   "MPICH reduce_scatter, recursive doubling (Thakur et al. 2005)",
                                   reduce_scatter_mpich_rdb});

} // namespace
} // namespace mpisim::mpi
