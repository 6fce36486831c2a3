// Fortran kinds chosen by precision and range (MPI-3.1 section 17.1.9): MPI_Type_create_f90_real,
// MPI_Type_create_f90_complex, MPI_Type_create_f90_integer. Each returns the predefined type of the kind gfortran's
// selected_real_kind(p, r) or selected_int_kind(r) gives, recorded with its parameters for MPI_Type_get_contents.
#include "online/bindings/Arguments.hpp"
#include "online/objects/ProcessObjects.hpp"

#include <string>
#include <vector>

using namespace mpisim::online;
using mpisim::mpi::Datatype;

namespace {

// gfortran's kinds on x86-64 (docs/online.md, "Fortran": "Kinds chosen by precision and range"), smallest first: the
// first whose precision and range both suffice is the one selected_real_kind picks. Kind 10 (x87 extended, stored
// in 16 bytes) is what mpi.h's MPI_REAL16 and MPI_COMPLEX32 hold; kind 16 (IEEE quadruple) has no type here.
struct RealKind {
  int precision;
  int range;
  MPI_Datatype real;
  MPI_Datatype complex;
};
constexpr RealKind kRealKinds[] = {
    {6, 37, MPI_REAL4, MPI_COMPLEX8}, {15, 307, MPI_REAL8, MPI_COMPLEX16}, {18, 4931, MPI_REAL16, MPI_COMPLEX32}};
constexpr int kQuadPrecision = 33;
constexpr int kQuadRange = 4931;

struct IntegerKind {
  int range; // decimal digits
  MPI_Datatype type;
};
constexpr IntegerKind kIntegerKinds[] = {
    {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8}, {38, MPI_INTEGER16}};

// The rank's handle for (combiner, parameters), made on first use from the sized type.
int kind_type(Runtime& runtime, MPI_Datatype sized, Datatype::Combiner combiner, std::vector<int> parameters,
              MPI_Datatype* newtype)
{
  auto& cache = runtime.process_objects().of_rank(runtime.current_rank()).fortran_kind_types;
  std::vector<int> key = parameters;
  key.insert(key.begin(), static_cast<int>(combiner));
  auto [entry, created] = cache.try_emplace(std::move(key), MPI_DATATYPE_NULL);
  if (created)
    entry->second = runtime.datatypes().add(
        Datatype::parameterized(runtime.datatypes().find(sized), combiner, std::move(parameters)));
  *newtype = entry->second;
  return MPI_SUCCESS;
}

// p or r may be MPI_UNDEFINED (not both): no requirement on that side.
int real_or_complex(int p, int r, Datatype::Combiner combiner, const char* call, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  if ((p < 0 && p != MPI_UNDEFINED) || (r < 0 && r != MPI_UNDEFINED))
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, call,
                       "p = " + std::to_string(p) + ", r = " + std::to_string(r) +
                           ": expected values >= 0 or MPI_UNDEFINED");
  if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, call, "p and r are both MPI_UNDEFINED");
  const int precision = p == MPI_UNDEFINED ? 0 : p;
  const int range = r == MPI_UNDEFINED ? 0 : r;
  const bool is_complex = combiner == Datatype::Combiner::F90Complex;
  for (const RealKind& kind : kRealKinds)
    if (precision <= kind.precision && range <= kind.range)
      return kind_type(runtime, is_complex ? kind.complex : kind.real, combiner, {p, r}, newtype);
  const std::string wanted = "precision " + std::to_string(precision) + " and range " + std::to_string(range);
  if (precision <= kQuadPrecision && range <= kQuadRange)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, call,
                       wanted + " is gfortran's KIND=16 (IEEE quadruple), which no MPI type of mpisim holds "
                                "(MPI_REAL16 is KIND=10, x87 extended)");
  return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, call, "no REAL kind of gfortran has " + wanted);
}

} // namespace

extern "C" int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype)
{
  return real_or_complex(p, r, Datatype::Combiner::F90Real, "MPI_Type_create_f90_real", newtype);
}

extern "C" int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype)
{
  return real_or_complex(p, r, Datatype::Combiner::F90Complex, "MPI_Type_create_f90_complex", newtype);
}

extern "C" int PMPI_Type_create_f90_integer(int r, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, r >= 0, MPI_COMM_WORLD, MPI_ERR_ARG,
               "r = " + std::to_string(r) + ": expected a number of decimal digits >= 0");
  for (const IntegerKind& kind : kIntegerKinds)
    if (r <= kind.range)
      return kind_type(runtime, kind.type, Datatype::Combiner::F90Integer, {r}, newtype);
  return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_create_f90_integer",
                     "no INTEGER kind of gfortran has " + std::to_string(r) + " decimal digits (at most 38)");
}

MPISIM_ALIAS(Type_create_f90_real)
MPISIM_ALIAS(Type_create_f90_complex)
MPISIM_ALIAS(Type_create_f90_integer)
