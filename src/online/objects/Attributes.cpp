#include "online/objects/Attributes.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mpisim::online {

int Attributes::create_keyval(const Keyval& keyval)
{
  return keyvals_.insert(keyval);
}

const Keyval* Attributes::keyval(int owner, AttributeObject object, int handle) const
{
  const Keyval* found = keyvals_.find(handle);
  if (found == nullptr || found->owner != owner || found->object != object)
    return nullptr;
  return found;
}

const Keyval& Attributes::known(int keyval) const
{
  const Keyval* found = keyvals_.find(keyval);
  if (found == nullptr)
    throw std::logic_error("keyval " + std::to_string(keyval) + " is not known");
  return *found;
}

void Attributes::free_keyval(int handle)
{
  Keyval* keyval = keyvals_.find(handle);
  if (keyval == nullptr)
    throw std::logic_error("keyval " + std::to_string(handle) + " is not known");
  keyval->freed = true;
  forget_if_unused(handle);
}

void Attributes::forget_if_unused(int keyval)
{
  const Keyval* found = keyvals_.find(keyval);
  if (found != nullptr && found->freed && uses_[keyval] == 0) {
    keyvals_.erase(keyval);
    uses_.erase(keyval);
  }
}

int Attributes::run_delete(int keyval, int handle, void* value)
{
  const Keyval& k = known(keyval);
  return k.remove ? k.remove(handle, keyval, value, k.extra_state) : MPI_SUCCESS;
}

int Attributes::set(int owner, AttributeObject object, int handle, int keyval, void* value)
{
  Values& values = values_[{owner, object, handle}];
  auto found = std::find_if(values.begin(), values.end(), [keyval](auto& v) { return v.first == keyval; });
  if (found == values.end()) {
    values.emplace_back(keyval, value);
    ++uses_[keyval];
    return MPI_SUCCESS;
  }
  if (int error = run_delete(keyval, handle, found->second); error != MPI_SUCCESS)
    return error;
  found->second = value;
  return MPI_SUCCESS;
}

bool Attributes::get(int owner, AttributeObject object, int handle, int keyval, void*& value) const
{
  auto object_values = values_.find({owner, object, handle});
  if (object_values == values_.end())
    return false;
  for (const auto& [key, stored] : object_values->second)
    if (key == keyval) {
      value = stored;
      return true;
    }
  return false;
}

int Attributes::remove(int owner, AttributeObject object, int handle, int keyval, bool& found)
{
  Values& values = values_[{owner, object, handle}];
  auto entry = std::find_if(values.begin(), values.end(), [keyval](auto& v) { return v.first == keyval; });
  found = entry != values.end();
  if (not found)
    return MPI_SUCCESS;
  // The attribute stays when its delete callback fails (MPI-3.1 section 6.7.2).
  if (int error = run_delete(keyval, handle, entry->second); error != MPI_SUCCESS)
    return error;
  values.erase(std::find_if(values.begin(), values.end(), [keyval](auto& v) { return v.first == keyval; }));
  --uses_[keyval];
  forget_if_unused(keyval);
  return MPI_SUCCESS;
}

int Attributes::copy_all(int owner, AttributeObject object, int from, int to)
{
  auto source = values_.find({owner, object, from});
  if (source == values_.end())
    return MPI_SUCCESS;
  const Values originals = source->second; // callbacks may set attributes on `from`
  for (const auto& [keyval, value] : originals) {
    const Keyval& k = known(keyval);
    if (k.copy == nullptr)
      continue;
    void* copied = nullptr;
    int flag = 0;
    if (int error = k.copy(from, keyval, k.extra_state, value, &copied, &flag); error != MPI_SUCCESS)
      return error;
    if (flag)
      set(owner, object, to, keyval, copied); // `to` is new: no delete callback to fail
  }
  return MPI_SUCCESS;
}

int Attributes::remove_all(int owner, AttributeObject object, int handle)
{
  auto object_values = values_.find({owner, object, handle});
  if (object_values == values_.end())
    return MPI_SUCCESS;
  Values values = std::move(object_values->second); // callbacks may touch the table
  values_.erase(object_values);
  int first_error = MPI_SUCCESS;
  for (auto v = values.rbegin(); v != values.rend(); ++v) {
    const int error = run_delete(v->first, handle, v->second);
    if (first_error == MPI_SUCCESS)
      first_error = error;
    --uses_[v->first];
    forget_if_unused(v->first);
  }
  return first_error;
}

} // namespace mpisim::online
