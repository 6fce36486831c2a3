// The table behind one kind of MPI integer handle (communicators, datatypes, operations, requests, messages, groups,
// info objects, error handlers, windows, keyvals): one template for every kind.
//
// Handles below `first` are null or predefined (insert_predefined); insert() gives `first`, `first + 1` ..., in
// order, and a freed handle is never given again. A lookup of a handle that names no object returns null, or, with
// resolve(), raises the kind's error class ("invalid <noun> <handle>") through the error handler of a communicator.
#pragma once

#include "online/runtime/Errors.hpp"

#include <mpi.h>

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mpisim::online {

// What an invalid handle of the kind raises.
struct HandleKind {
  int error_class;  // MPI_ERR_COMM, MPI_ERR_TYPE ...
  const char* noun; // "communicator", "datatype" ...
};

// Dense: handles index a vector (a lookup is one bounds check; a freed handle leaves an empty slot), for kinds made
// rarely and looked up by every call (communicators, datatypes, operations). Sparse: a hash map (a freed handle
// takes no room), for kinds made and freed at a high rate (requests, messages) or rarely looked up.
enum class HandleStorage { Dense, Sparse };

template <class Object, HandleStorage storage = HandleStorage::Sparse> class HandleTable {
public:
  HandleTable(HandleKind kind, int first) : kind_(kind), next_(first)
  {
    if constexpr (storage == HandleStorage::Dense)
      slots_.resize(static_cast<size_t>(first));
  }

  const HandleKind& kind() const { return kind_; }

  // A new handle for `object`.
  int insert(Object object)
  {
    const int handle = next_++;
    if constexpr (storage == HandleStorage::Dense)
      slots_.emplace_back(std::move(object));
    else
      objects_.emplace(handle, std::move(object));
    return handle;
  }
  // A predefined handle (below `first`), set at start-up or on first use.
  Object& insert_predefined(int handle, Object object)
  {
    if constexpr (storage == HandleStorage::Dense)
      return slots_[static_cast<size_t>(handle)].emplace(std::move(object));
    else
      return objects_.insert_or_assign(handle, std::move(object)).first->second;
  }

  // Null when `handle` names no object (never given, freed, or null).
  Object* find(int handle)
  {
    if constexpr (storage == HandleStorage::Dense) {
      if (handle < 0 || handle >= static_cast<int>(slots_.size()) || not slots_[static_cast<size_t>(handle)])
        return nullptr;
      return &*slots_[static_cast<size_t>(handle)];
    } else {
      auto found = objects_.find(handle);
      return found == objects_.end() ? nullptr : &found->second;
    }
  }
  const Object* find(int handle) const { return const_cast<HandleTable*>(this)->find(handle); }

  // MPI_SUCCESS and `out` set, or the kind's error class raised through `comm`'s error handler, naming `call`.
  int resolve(Runtime& runtime, int handle, int comm, const char* call, Object*& out)
  {
    out = find(handle);
    return out != nullptr ? MPI_SUCCESS : raise_invalid(runtime, handle, comm, call);
  }
  int raise_invalid(Runtime& runtime, int handle, int comm, const char* call) const
  {
    return raise_error(runtime, comm, kind_.error_class, call,
                       std::string("invalid ") + kind_.noun + " " + std::to_string(handle));
  }

  // False when `handle` named no object.
  bool erase(int handle)
  {
    if constexpr (storage == HandleStorage::Dense) {
      Object* object = find(handle);
      if (object == nullptr)
        return false;
      slots_[static_cast<size_t>(handle)].reset();
      return true;
    } else {
      return objects_.erase(handle) > 0;
    }
  }
  // The object, removed from the table; nullopt when `handle` named none.
  std::optional<Object> take(int handle)
  {
    Object* object = find(handle);
    if (object == nullptr)
      return std::nullopt;
    std::optional<Object> taken(std::move(*object));
    erase(handle);
    return taken;
  }

  // Every handle whose object satisfies `predicate`, in increasing order (any table; a scan of all objects).
  template <class Predicate> std::vector<int> handles_where(const Predicate& predicate) const
  {
    std::vector<int> handles;
    if constexpr (storage == HandleStorage::Dense) {
      for (size_t handle = 0; handle < slots_.size(); ++handle)
        if (slots_[handle] && predicate(*slots_[handle]))
          handles.push_back(static_cast<int>(handle));
    } else {
      for (const auto& [handle, object] : objects_)
        if (predicate(object))
          handles.push_back(handle);
      std::sort(handles.begin(), handles.end()); // the map's order is not reproducible
    }
    return handles;
  }

  // The first handle whose object satisfies `predicate`, in handle order (dense tables); 0 when none does.
  template <class Predicate> int find_handle(const Predicate& predicate) const
  {
    static_assert(storage == HandleStorage::Dense, "sparse tables are not searched in handle order");
    for (size_t handle = 0; handle < slots_.size(); ++handle)
      if (slots_[handle] && predicate(*slots_[handle]))
        return static_cast<int>(handle);
    return 0;
  }

private:
  HandleKind kind_;
  int next_;
  std::vector<std::optional<Object>> slots_; // Dense
  std::unordered_map<int, Object> objects_;  // Sparse
};

} // namespace mpisim::online
