// Datatype inquiries: names (MPI_Type_set/get_name), how a type was built (MPI_Type_get_envelope/get_contents),
// MPI_Count sizes and extents (MPI_Type_size_x, MPI_Type_get_extent_x, MPI_Type_get_true_extent_x),
// MPI_Type_match_size.
#include "online/bindings/Arguments.hpp"
#include "online/objects/ProcessObjects.hpp"

#include <cstdio>
#include <cstring>

using namespace mpisim::online;
using mpisim::mpi::Datatype;
using mpisim::mpi::DatatypePtr;

namespace {

int combiner_constant(Datatype::Combiner combiner)
{
  using C = Datatype::Combiner;
  switch (combiner) {
  case C::Named: return MPI_COMBINER_NAMED;
  case C::Dup: return MPI_COMBINER_DUP;
  case C::Contiguous: return MPI_COMBINER_CONTIGUOUS;
  case C::Vector: return MPI_COMBINER_VECTOR;
  case C::Hvector: return MPI_COMBINER_HVECTOR;
  case C::Indexed: return MPI_COMBINER_INDEXED;
  case C::Hindexed: return MPI_COMBINER_HINDEXED;
  case C::IndexedBlock: return MPI_COMBINER_INDEXED_BLOCK;
  case C::HindexedBlock: return MPI_COMBINER_HINDEXED_BLOCK;
  case C::Struct: return MPI_COMBINER_STRUCT;
  case C::Subarray: return MPI_COMBINER_SUBARRAY;
  case C::Darray: return MPI_COMBINER_DARRAY;
  case C::Resized: return MPI_COMBINER_RESIZED;
  case C::F90Real: return MPI_COMBINER_F90_REAL;
  case C::F90Complex: return MPI_COMBINER_F90_COMPLEX;
  case C::F90Integer: return MPI_COMBINER_F90_INTEGER;
  }
  return MPI_COMBINER_NAMED;
}

// The recipe's orders are 0 for C and 1 for Fortran, as mpi.h's.
static_assert(MPI_ORDER_C == 0 && MPI_ORDER_FORTRAN == 1);

// A handle for a type of a recipe: predefined types have theirs; a derived one gets a new handle, which the
// application frees (MPI-3.1 4.1.13).
MPI_Datatype handle_for(Runtime& runtime, const DatatypePtr& type)
{
  if (type->is_predefined())
    return runtime.datatypes().handle_of(*type);
  return runtime.datatypes().add(type);
}

std::map<int, std::string>& names_of_this_rank(Runtime& runtime)
{
  return runtime.process_objects().of_rank(runtime.current_rank()).type_names;
}

} // namespace

extern "C" int PMPI_Type_set_name(MPI_Datatype type, const char* name)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_set_name", t));
  MPISIM_CHECK(runtime, name != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG, "null name");
  // Longer names are truncated, as the standard allows.
  names_of_this_rank(runtime)[type] = std::string(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_name(MPI_Datatype type, char* name, int* resultlen)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_get_name", t));
  const auto& names = names_of_this_rank(runtime);
  auto found = names.find(type);
  // Predefined types are named after their handle ("MPI_INT"); derived ones are unnamed until set.
  const std::string text = found != names.end() ? found->second : t->is_predefined() ? t->name() : "";
  *resultlen = std::snprintf(name, MPI_MAX_OBJECT_NAME, "%s", text.c_str());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_envelope(MPI_Datatype type, int* num_integers, int* num_addresses, int* num_datatypes,
                                      int* combiner)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_get_envelope", t));
  const Datatype::Recipe& recipe = t->recipe();
  *num_integers = static_cast<int>(recipe.integers.size());
  *num_addresses = static_cast<int>(recipe.addresses.size());
  *num_datatypes = static_cast<int>(recipe.types.size());
  *combiner = combiner_constant(recipe.combiner);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_contents(MPI_Datatype type, int max_integers, int max_addresses, int max_datatypes,
                                      int integers[], MPI_Aint addresses[], MPI_Datatype datatypes[])
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_get_contents", t));
  const Datatype::Recipe& recipe = t->recipe();
  MPISIM_CHECK(runtime, recipe.combiner != Datatype::Combiner::Named, MPI_COMM_WORLD, MPI_ERR_ARG,
               "a predefined datatype has no contents (its combiner is MPI_COMBINER_NAMED)");
  MPISIM_CHECK(runtime,
               max_integers >= static_cast<int>(recipe.integers.size()) &&
                   max_addresses >= static_cast<int>(recipe.addresses.size()) &&
                   max_datatypes >= static_cast<int>(recipe.types.size()),
               MPI_COMM_WORLD, MPI_ERR_ARG,
               "the arrays are smaller than MPI_Type_get_envelope says (" + std::to_string(recipe.integers.size()) +
                   " integers, " + std::to_string(recipe.addresses.size()) + " addresses, " +
                   std::to_string(recipe.types.size()) + " datatypes)");
  std::copy(recipe.integers.begin(), recipe.integers.end(), integers);
  std::copy(recipe.addresses.begin(), recipe.addresses.end(), addresses);
  for (size_t i = 0; i < recipe.types.size(); ++i)
    datatypes[i] = handle_for(runtime, recipe.types[i]);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_size_x(MPI_Datatype type, MPI_Count* size)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_size_x", t));
  *size = static_cast<MPI_Count>(t->size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_extent_x(MPI_Datatype type, MPI_Count* lb, MPI_Count* extent)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_get_extent_x", t));
  *lb = t->lb();
  *extent = t->extent();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count* true_lb, MPI_Count* true_extent)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_get_true_extent_x", t));
  *true_lb = t->true_lb();
  *true_extent = t->true_extent();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype* type)
{
  Runtime& runtime = Runtime::get();
  // The sized Fortran types of each class, smallest first (MPI-3.1 section 17.2.5).
  static const MPI_Datatype integers[] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_INTEGER16};
  static const MPI_Datatype reals[] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
  static const MPI_Datatype complexes[] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
  auto pick = [&](const MPI_Datatype* candidates, size_t count) {
    for (size_t i = 0; i < count; ++i)
      if (static_cast<int>(runtime.datatypes().find(candidates[i])->size()) == size)
        return candidates[i];
    return MPI_DATATYPE_NULL;
  };
  MPI_Datatype found = MPI_DATATYPE_NULL;
  if (typeclass == MPI_TYPECLASS_INTEGER)
    found = pick(integers, std::size(integers));
  else if (typeclass == MPI_TYPECLASS_REAL)
    found = pick(reals, std::size(reals));
  else if (typeclass == MPI_TYPECLASS_COMPLEX)
    found = pick(complexes, std::size(complexes));
  else
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_match_size",
                       "unknown type class " + std::to_string(typeclass));
  MPISIM_CHECK(runtime, found != MPI_DATATYPE_NULL, MPI_COMM_WORLD, MPI_ERR_ARG,
               "no type of this class has " + std::to_string(size) + " bytes");
  *type = found;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Type_set_name)
MPISIM_ALIAS(Type_get_name)
MPISIM_ALIAS(Type_get_envelope)
MPISIM_ALIAS(Type_get_contents)
MPISIM_ALIAS(Type_size_x)
MPISIM_ALIAS(Type_get_extent_x)
MPISIM_ALIAS(Type_get_true_extent_x)
MPISIM_ALIAS(Type_match_size)
