// MPI datatypes: predefined and derived (contiguous, vector, hvector, indexed, hindexed, indexed_block,
// hindexed_block, struct, resized, subarray), reduced at construction to what moving and reducing data needs:
//  - a type map flattened into contiguous byte blocks (offset, length) for one element, adjacent blocks merged;
//  - the type signature as runs of primitive elements (what reductions operate on);
//  - size, lower bound and extent (MPI's lb/ub rules, with resized overriding them), true lb/extent.
//  - the recipe: the constructor and the arguments it was called with (MPI_Type_get_envelope/get_contents).
// Data moves packed: pack() gathers `count` elements into a contiguous buffer, unpack() scatters them back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::mpi {

// Primitive element kinds: what a reduction operation knows how to combine.
enum class Element : uint8_t {
  Char,
  SignedChar,
  UnsignedChar,
  Byte,
  Short,
  UnsignedShort,
  Int,
  Unsigned,
  Long,
  UnsignedLong,
  LongLong,
  UnsignedLongLong,
  Float,
  Double,
  LongDouble,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  CBool,
  WChar,
  FloatComplex,
  DoubleComplex,
  Aint,
  Offset,
  Count,
  // Pair types of MAXLOC/MINLOC (value, int index), laid out as the C structs MPI defines.
  FloatInt,
  DoubleInt,
  LongInt,
  TwoInt,
  ShortInt,
  LongDoubleInt,
  Packed,
  // Added later, after MPI_PACKED to keep the handles of mpi.h: long double complex and the C++ types.
  LongDoubleComplex,
  CxxBool,
  CxxFloatComplex,
  CxxDoubleComplex,
  CxxLongDoubleComplex,
  // The Fortran types C programs name (MPI-3.1 section 3.2.2 and 17.2.5), after the C ones for the same reason. Each
  // has the C representation of its gfortran counterpart: INTEGER and LOGICAL are int, REAL float, DOUBLE PRECISION
  // double, REAL16 long double (16 bytes on x86-64, as MPICH and SMPI map it), INTEGER16 a 128-bit integer; the pair
  // types of MAXLOC/MINLOC hold two values of the same type.
  FortranCharacter,
  FortranLogical,
  FortranInteger,
  FortranReal,
  FortranDoublePrecision,
  FortranComplex,
  FortranDoubleComplex,
  FortranTwoInteger,
  FortranTwoReal,
  FortranTwoDoublePrecision,
  Integer1,
  Integer2,
  Integer4,
  Integer8,
  Integer16,
  Real4,
  Real8,
  Real16,
  Complex8,
  Complex16,
  Complex32
};

// The value of MPI_INTEGER16: GCC's and Clang's 128-bit integer (an extension, hence the marker).
__extension__ typedef __int128 Integer16Value;

size_t element_size(Element element);
const char* element_name(Element element);

class Datatype;
using DatatypePtr = std::shared_ptr<const Datatype>;

class Datatype {
public:
  struct Block {
    std::ptrdiff_t offset;
    size_t length;
  };
  struct Run {
    Element element;
    size_t count;
  };
  // How a type was built, as MPI_Type_get_contents returns it: the integer, address and datatype arguments in the
  // standard's order (MPI-3.1 section 4.1.13). Subarray and darray orders are 0 for C, 1 for Fortran.
  enum class Combiner {
    Named,
    Dup,
    Contiguous,
    Vector,
    Hvector,
    Indexed,
    Hindexed,
    IndexedBlock,
    HindexedBlock,
    Struct,
    Subarray,
    Darray,
    Resized,
    F90Real,
    F90Complex,
    F90Integer
  };
  struct Recipe {
    Combiner combiner = Combiner::Named;
    std::vector<int> integers;
    std::vector<std::ptrdiff_t> addresses;
    std::vector<DatatypePtr> types;
  };

  // Predefined types.
  static DatatypePtr predefined(Element element);
  // MPI-1's MPI_LB and MPI_UB: no data, a lower (upper) bound marker at displacement 0. In a constructed type the
  // markers are "sticky": the lowest LB marker is the type's lower bound and the highest UB marker its upper bound,
  // whatever the data around them, and they carry over into the types built from it (MPI-1.1 section 3.12.3).
  static DatatypePtr lower_bound_marker();
  static DatatypePtr upper_bound_marker();

  // Derived-type constructors (MPI_Type_*). Counts and lengths must be >= 0 (InputError otherwise); `old` must
  // not be null.
  static DatatypePtr contiguous(int count, const DatatypePtr& old);
  static DatatypePtr vector(int count, int blocklength, int stride, const DatatypePtr& old);
  static DatatypePtr hvector(int count, int blocklength, std::ptrdiff_t stride_bytes, const DatatypePtr& old);
  static DatatypePtr indexed(const std::vector<int>& blocklengths, const std::vector<int>& displacements,
                             const DatatypePtr& old);
  static DatatypePtr hindexed(const std::vector<int>& blocklengths,
                              const std::vector<std::ptrdiff_t>& displacements_bytes, const DatatypePtr& old);
  static DatatypePtr indexed_block(int blocklength, const std::vector<int>& displacements, const DatatypePtr& old);
  static DatatypePtr hindexed_block(int blocklength, const std::vector<std::ptrdiff_t>& displacements_bytes,
                                    const DatatypePtr& old);
  static DatatypePtr structure(const std::vector<int>& blocklengths,
                               const std::vector<std::ptrdiff_t>& displacements_bytes,
                               const std::vector<DatatypePtr>& types);
  static DatatypePtr resized(const DatatypePtr& old, std::ptrdiff_t lb, std::ptrdiff_t extent);
  enum class Order { C, Fortran };
  static DatatypePtr subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                              const std::vector<int>& starts, Order order, const DatatypePtr& old);
  // A new type with the type map of `old` (MPI_Type_dup).
  static DatatypePtr duplicate(const DatatypePtr& old);
  // A type built elsewhere from the same type map (darray, whose layout the front end computes), recorded with
  // `recipe` instead of the recipe of the constructors that built it.
  static DatatypePtr with_recipe(const DatatypePtr& built, Recipe recipe);
  // A Fortran kind chosen by precision and range (MPI_Type_create_f90_*): a predefined type with the type map of
  // `matching` (the sized type of that kind), recorded with its combiner (F90Real, F90Complex, F90Integer) and the
  // parameters as given (p and r, or r).
  static DatatypePtr parameterized(const DatatypePtr& matching, Combiner combiner, std::vector<int> parameters);

  size_t size() const { return size_; } // bytes of data in one element
  std::ptrdiff_t lb() const { return lb_; }
  std::ptrdiff_t extent() const { return ub_ - lb_; }
  std::ptrdiff_t true_lb() const { return true_lb_; }
  std::ptrdiff_t true_extent() const { return true_ub_ - true_lb_; }
  bool is_predefined() const { return predefined_; }
  // One block starting at offset 0 whose length is the extent: count elements are count * size contiguous bytes.
  bool is_contiguous() const { return contiguous_; }
  const std::vector<Block>& blocks() const { return blocks_; }
  const std::vector<Run>& signature() const { return signature_; }
  // The single primitive kind of every element of the signature, or false when the signature mixes kinds.
  bool homogeneous(Element& element) const;
  const std::string& name() const { return name_; }
  const Recipe& recipe() const { return recipe_; }

  void pack(const void* source, size_t count, std::byte* out) const;
  void unpack(const std::byte* in, size_t count, void* destination) const;
  size_t packed_size(size_t count) const { return count * size_; }

private:
  Datatype() = default;
  // Builds a type from `copies` of `old` placed at `displacements` (bytes), each repeated `lengths` times.
  static std::shared_ptr<Datatype> assemble(const std::vector<std::ptrdiff_t>& displacements,
                                            const std::vector<size_t>& lengths, const std::vector<DatatypePtr>& types,
                                            std::string name);
  void finish();
  // Where a bound comes from: the data of the type map, a sticky marker (MPI_LB/MPI_UB, or resized's bounds, which
  // MPI-2 defines as markers), or nothing (the other marker type has no such bound and does not move it).
  enum class Bound : uint8_t { Data, Marker, Absent };
  // Sets the recipe of a type this class just built (not yet shared with anyone).
  static DatatypePtr recorded(const DatatypePtr& fresh, Recipe recipe);

  std::string name_;
  size_t size_ = 0;
  std::ptrdiff_t lb_ = 0, ub_ = 0, true_lb_ = 0, true_ub_ = 0;
  bool predefined_ = false;
  bool contiguous_ = false;
  Bound lb_from_ = Bound::Data, ub_from_ = Bound::Data;
  std::vector<Block> blocks_;
  std::vector<Run> signature_;
  Recipe recipe_;
};

} // namespace mpisim::mpi
