// Reduction operations: MPI's predefined ones over every primitive element kind they are defined for (MAXLOC and
// MINLOC over the value-index pair types), and user-defined ones. apply() follows MPI's convention:
// inout[i] = in[i] op inout[i], element by element along the datatype's signature.
#pragma once

#include "mpi/Datatype.hpp"

#include <functional>
#include <memory>
#include <string>

namespace mpisim::mpi {

enum class ReduceOperation : uint8_t {
  Max,
  Min,
  Sum,
  Prod,
  LogicalAnd,
  LogicalOr,
  LogicalXor,
  BitwiseAnd,
  BitwiseOr,
  BitwiseXor,
  MaxLoc,
  MinLoc,
  Replace,
  NoOp
};

class ReduceOp {
public:
  // A user function sees packed data when the datatype is not contiguous, the user's buffers otherwise.
  using UserFunction = std::function<void(const void* in, void* inout, int count, const Datatype& type)>;

  static std::shared_ptr<const ReduceOp> predefined(ReduceOperation operation);
  static std::shared_ptr<const ReduceOp> user(UserFunction function, bool commutative, std::string name = "user op");

  bool commutative() const { return commutative_; }
  const std::string& name() const { return name_; }

  // Why the operation is not defined for the datatype's elements ("MPI_SUM is not defined for MPI_2INT"), or an empty
  // string when it is (always for user operations): the check a binding makes before a reduction starts.
  std::string undefined_for(const Datatype& type) const;
  // Throws InputError when the operation is not defined for the datatype's elements (MPI_SUM on MPI_2INT, ...).
  void apply(const void* in, void* inout, size_t count, const Datatype& type) const;
  // The same on packed data (`count` elements of `type`, contiguous, as collectives move them).
  void apply_to_packed(const std::byte* in, std::byte* inout, size_t count, const Datatype& type) const;

private:
  ReduceOp() = default;
  void apply_packed(const std::byte* in, std::byte* inout, size_t count, const Datatype& type) const;

  std::string name_;
  bool commutative_ = true;
  bool predefined_ = false;
  ReduceOperation operation_ = ReduceOperation::NoOp;
  UserFunction user_;
};

using ReduceOpPtr = std::shared_ptr<const ReduceOp>;

} // namespace mpisim::mpi
