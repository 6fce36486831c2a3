// Attribute caching (MPI-3.1 section 6.7): keyvals and the attributes each rank attaches to its communicators,
// datatypes and windows. Keyvals and attributes are local to the rank that made them, as they are to a process in real
// MPI. Predefined keyvals (MPI_TAG_UB ..., MPI_WIN_BASE ...) are answered by api_attributes.cpp and api_windows.cpp
// and never stored here.
#pragma once

#include "online/runtime/HandleTable.hpp"

#include <mpi.h>

#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace mpisim::online {

enum class AttributeObject { Comm, Type, Win };

struct Keyval {
  AttributeObject object;
  int owner;                                       // world rank
  MPI_Comm_copy_attr_function* copy = nullptr;     // null: MPI_..._NULL_COPY_FN
  MPI_Comm_delete_attr_function* remove = nullptr; // null: MPI_..._NULL_DELETE_FN
  void* extra_state = nullptr;
  bool freed = false; // by MPI_..._free_keyval: kept while attributes still use it (their delete callbacks run)
};

class Attributes {
public:
  static constexpr int kFirstUserKeyval = 16; // below: MPI_KEYVAL_INVALID and the predefined keys

  int create_keyval(const Keyval& keyval);
  // The keyval `handle` of `owner` for this kind of object; null when it is unknown or of another kind. A freed
  // keyval still answers while attributes use it (MPI-3.1 section 6.7.2: the actual free happens when the last one
  // goes), as in MPICH: those attributes can still be read and deleted through it.
  const Keyval* keyval(int owner, AttributeObject object, int handle) const;
  // Freeing an already freed keyval that attributes still hold does nothing.
  void free_keyval(int handle);

  // Each returns MPI_SUCCESS or the error code a callback returned (the error of the call that ran it).
  // Setting replaces the value, running the delete callback on the old one first.
  int set(int owner, AttributeObject object, int handle, int keyval, void* value);
  bool get(int owner, AttributeObject object, int handle, int keyval, void*& value) const;
  int remove(int owner, AttributeObject object, int handle, int keyval, bool& found);
  // MPI_Comm_dup: the copy callbacks of `from`'s attributes decide which reach `to`.
  int copy_all(int owner, AttributeObject object, int from, int to);
  // MPI_Comm_free, MPI_Type_free, MPI_Finalize (MPI_COMM_SELF): delete callbacks, last attribute set first.
  int remove_all(int owner, AttributeObject object, int handle);

private:
  using ObjectKey = std::tuple<int, AttributeObject, int>; // (owner, kind, handle)
  using Values = std::vector<std::pair<int, void*>>;       // (keyval, value) in the order they were first set
  const Keyval& known(int keyval) const;                   // a keyval attributes hold (kept until the last goes)
  int run_delete(int keyval, int handle, void* value);
  void forget_if_unused(int keyval);

  HandleTable<Keyval> keyvals_{{MPI_ERR_KEYVAL, "keyval"}, kFirstUserKeyval};
  std::map<int, int> uses_; // keyval -> attributes holding it
  std::map<ObjectKey, Values> values_;
};

} // namespace mpisim::online
