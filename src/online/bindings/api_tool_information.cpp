// The tool information interface (MPI-3.1 chapter 14): MPI_T_init_thread, MPI_T_finalize, the enumerations, control
// variables, performance variables and categories of online/objects/ToolVariables.cpp. The functions return their
// error class (MPI_T_ERR_*) and call no error handler (section 14.3.9). Strings follow section 14.3.3: a null buffer
// or a length of 0 asks for the length (terminator included); otherwise at most length - 1 characters and the
// terminator are written and the length becomes what was written, terminator included.
#include "online/bindings/Arguments.hpp"
#include "online/objects/ToolVariables.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

using namespace mpisim::online;

namespace {

RankToolState& state(Runtime& runtime)
{
  return runtime.tools().of_rank(runtime.current_rank());
}

bool initialized(Runtime& runtime)
{
  return state(runtime).initializations > 0;
}

void write_string(const std::string& text, char* out, int* length)
{
  if (length == nullptr)
    return;
  const int needed = static_cast<int>(text.size()) + 1;
  if (out == nullptr || *length <= 0) {
    *length = needed;
    return;
  }
  const int kept = std::min(*length - 1, static_cast<int>(text.size()));
  std::memcpy(out, text.data(), static_cast<size_t>(kept));
  out[kept] = '\0';
  *length = kept + 1;
}

template <typename T> void set(T* out, T value)
{
  if (out != nullptr)
    *out = value;
}

// The elements a handle on the variable reads: one, or a string's characters with its terminator.
int element_count(MPI_Datatype datatype, const ToolValue& value)
{
  return datatype == MPI_CHAR ? static_cast<int>(std::get<std::string>(value).size()) + 1 : 1;
}

void write_value(MPI_Datatype datatype, const ToolValue& value, void* buf)
{
  if (datatype == MPI_CHAR) {
    const std::string& text = std::get<std::string>(value);
    std::memcpy(buf, text.c_str(), text.size() + 1);
  } else if (datatype == MPI_DOUBLE) {
    *static_cast<double*>(buf) = std::get<double>(value);
  } else if (datatype == MPI_INT) {
    *static_cast<int*>(buf) = static_cast<int>(std::get<int64_t>(value));
  } else if (datatype == MPI_UNSIGNED) {
    *static_cast<unsigned*>(buf) = static_cast<unsigned>(std::get<int64_t>(value));
  } else { // MPI_UNSIGNED_LONG_LONG
    *static_cast<unsigned long long*>(buf) = static_cast<unsigned long long>(std::get<int64_t>(value));
  }
}

template <typename Table> bool valid_index(const Table& table, int index)
{
  return index >= 0 && static_cast<size_t>(index) < table.size();
}

// Into *out, the index of the entry named `name` that `accepts`; MPI_T_ERR_INVALID_NAME when there is none.
template <typename Table, typename Accept>
int find_index(const Table& table, const char* name, int* out, Accept accepts)
{
  if (name == nullptr || out == nullptr)
    return MPI_T_ERR_INVALID;
  for (size_t i = 0; i < table.size(); ++i)
    if (table[i].name == name && accepts(table[i])) {
      *out = static_cast<int>(i);
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

template <typename Table> int find_index(const Table& table, const char* name, int* out)
{
  return find_index(table, name, out, [](const auto&) { return true; });
}

// The enumeration behind a handle (1 + its index), or null.
const ToolEnum* enum_of(MPI_T_enum enumtype)
{
  if (enumtype < 1 || static_cast<size_t>(enumtype) > tool_enums().size())
    return nullptr;
  return &tool_enums()[static_cast<size_t>(enumtype - 1)];
}

// The variable a performance variable handle of `session` reads, or -1 (with the error class in `error`).
int pvar_of(Runtime& runtime, MPI_T_pvar_session session, MPI_T_pvar_handle handle, int& error)
{
  auto found = state(runtime).sessions.find(session);
  if (found == state(runtime).sessions.end()) {
    error = MPI_T_ERR_INVALID_SESSION;
    return -1;
  }
  auto variable = found->second.find(handle);
  if (variable == found->second.end()) {
    error = MPI_T_ERR_INVALID_HANDLE;
    return -1;
  }
  return variable->second;
}

// What starting, stopping, writing or resetting a handle gives: every variable is continuous and read-only, so the
// call is refused with `refusal` for one handle and does nothing for MPI_T_PVAR_ALL_HANDLES (section 14.3.7).
int refuse_on_handle(MPI_T_pvar_session session, MPI_T_pvar_handle handle, int refusal)
{
  Runtime& runtime = Runtime::get();
  if (not initialized(runtime))
    return MPI_T_ERR_NOT_INITIALIZED;
  if (handle == MPI_T_PVAR_ALL_HANDLES)
    return state(runtime).sessions.count(session) != 0 ? MPI_SUCCESS : MPI_T_ERR_INVALID_SESSION;
  int error = MPI_SUCCESS;
  return pvar_of(runtime, session, handle, error) < 0 ? error : refusal;
}

// A category's list of variables (or subcategories): its first `len`.
int category_list(int cat_index, int len, int indices[], const std::vector<int> ToolCategory::*list)
{
  Runtime& runtime = Runtime::get();
  if (not initialized(runtime))
    return MPI_T_ERR_NOT_INITIALIZED;
  if (not valid_index(tool_categories(), cat_index))
    return MPI_T_ERR_INVALID_INDEX;
  if (len < 0 || (len > 0 && indices == nullptr))
    return MPI_T_ERR_INVALID;
  const std::vector<int>& members = tool_categories()[static_cast<size_t>(cat_index)].*list;
  std::copy_n(members.begin(), std::min(members.size(), static_cast<size_t>(len)), indices);
  return MPI_SUCCESS;
}

#define MPISIM_T_INITIALIZED(runtime)                                                                                  \
  do {                                                                                                                 \
    if (not initialized(runtime))                                                                                      \
      return MPI_T_ERR_NOT_INITIALIZED;                                                                                \
  } while (0)

} // namespace

// Initialization -----------------------------------------------------------------------------------------------------

extern "C" int PMPI_T_init_thread(int required, int* provided)
{
  Runtime& runtime = Runtime::get();
  if (provided == nullptr)
    return MPI_T_ERR_INVALID;
  *provided = MPI_THREAD_SINGLE < required ? MPI_THREAD_FUNNELED : MPI_THREAD_SINGLE; // as MPI_Init_thread
  ++state(runtime).initializations;
  return MPI_SUCCESS;
}

// The last finalization frees the rank's handles and sessions.
extern "C" int PMPI_T_finalize()
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  RankToolState& rank = state(runtime);
  if (--rank.initializations == 0) {
    rank.cvar_handles.clear();
    rank.sessions.clear();
  }
  return MPI_SUCCESS;
}

// Enumerations -------------------------------------------------------------------------------------------------------

extern "C" int PMPI_T_enum_get_info(MPI_T_enum enumtype, int* num, char* name, int* name_len)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  const ToolEnum* described = enum_of(enumtype);
  if (described == nullptr)
    return MPI_T_ERR_INVALID_HANDLE;
  set(num, static_cast<int>(described->items.size()));
  write_string(described->name, name, name_len);
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int* value, char* name, int* name_len)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  const ToolEnum* described = enum_of(enumtype);
  if (described == nullptr)
    return MPI_T_ERR_INVALID_HANDLE;
  if (not valid_index(described->items, index))
    return MPI_T_ERR_INVALID_ITEM;
  set(value, described->items[static_cast<size_t>(index)].first);
  write_string(described->items[static_cast<size_t>(index)].second, name, name_len);
  return MPI_SUCCESS;
}

// Control variables --------------------------------------------------------------------------------------------------

extern "C" int PMPI_T_cvar_get_num(int* num_cvar)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  set(num_cvar, static_cast<int>(control_variables().size()));
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_cvar_get_info(int cvar_index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype,
                                    MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* scope)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  if (not valid_index(control_variables(), cvar_index))
    return MPI_T_ERR_INVALID_INDEX;
  const ControlVariable& variable = control_variables()[static_cast<size_t>(cvar_index)];
  write_string(variable.name, name, name_len);
  set(verbosity, MPI_T_VERBOSITY_USER_BASIC);
  set(datatype, variable.datatype);
  set(enumtype, variable.enumtype);
  write_string(variable.description, desc, desc_len);
  set(bind, MPI_T_BIND_NO_OBJECT);
  set(scope, variable.scope);
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_cvar_get_index(const char* name, int* cvar_index)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  return find_index(control_variables(), name, cvar_index);
}

extern "C" int PMPI_T_cvar_handle_alloc(int cvar_index, void* /*obj_handle*/, MPI_T_cvar_handle* handle, int* count)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  if (not valid_index(control_variables(), cvar_index))
    return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr)
    return MPI_T_ERR_INVALID;
  const ControlVariable& variable = control_variables()[static_cast<size_t>(cvar_index)];
  RankToolState& rank = state(runtime);
  *handle = rank.next_handle++;
  rank.cvar_handles[*handle] = cvar_index;
  set(count, element_count(variable.datatype, variable.value(runtime)));
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_cvar_handle_free(MPI_T_cvar_handle* handle)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  if (handle == nullptr || state(runtime).cvar_handles.erase(*handle) == 0)
    return MPI_T_ERR_INVALID_HANDLE;
  *handle = MPI_T_CVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  auto found = state(runtime).cvar_handles.find(handle);
  if (found == state(runtime).cvar_handles.end())
    return MPI_T_ERR_INVALID_HANDLE;
  if (buf == nullptr)
    return MPI_T_ERR_INVALID;
  const ControlVariable& variable = control_variables()[static_cast<size_t>(found->second)];
  write_value(variable.datatype, variable.value(runtime), buf);
  return MPI_SUCCESS;
}

// The run's options are fixed when it starts (MPI_T_SCOPE_CONSTANT).
extern "C" int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void* /*buf*/)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  if (state(runtime).cvar_handles.count(handle) == 0)
    return MPI_T_ERR_INVALID_HANDLE;
  return MPI_T_ERR_CVAR_SET_NEVER;
}

// Performance variables ----------------------------------------------------------------------------------------------

extern "C" int PMPI_T_pvar_get_num(int* num_pvar)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  set(num_pvar, static_cast<int>(performance_variables().size()));
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_pvar_get_info(int pvar_index, char* name, int* name_len, int* verbosity, int* var_class,
                                    MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind,
                                    int* readonly, int* continuous, int* atomic)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  if (not valid_index(performance_variables(), pvar_index))
    return MPI_T_ERR_INVALID_INDEX;
  const PerformanceVariable& variable = performance_variables()[static_cast<size_t>(pvar_index)];
  write_string(variable.name, name, name_len);
  set(verbosity, MPI_T_VERBOSITY_USER_BASIC);
  set(var_class, variable.var_class);
  set(datatype, variable.datatype);
  set(enumtype, MPI_T_ENUM_NULL);
  write_string(variable.description, desc, desc_len);
  set(bind, MPI_T_BIND_NO_OBJECT);
  set(readonly, 1);
  set(continuous, 1);
  set(atomic, 0);
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_pvar_get_index(const char* name, int var_class, int* pvar_index)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  return find_index(performance_variables(), name, pvar_index,
                    [var_class](const PerformanceVariable& variable) { return variable.var_class == var_class; });
}

extern "C" int PMPI_T_pvar_session_create(MPI_T_pvar_session* session)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  if (session == nullptr)
    return MPI_T_ERR_INVALID;
  RankToolState& rank = state(runtime);
  *session = rank.next_handle++;
  rank.sessions[*session];
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_pvar_session_free(MPI_T_pvar_session* session)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  if (session == nullptr || state(runtime).sessions.erase(*session) == 0)
    return MPI_T_ERR_INVALID_SESSION;
  *session = MPI_T_PVAR_SESSION_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void* /*obj_handle*/,
                                        MPI_T_pvar_handle* handle, int* count)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  RankToolState& rank = state(runtime);
  auto found = rank.sessions.find(session);
  if (found == rank.sessions.end())
    return MPI_T_ERR_INVALID_SESSION;
  if (not valid_index(performance_variables(), pvar_index))
    return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr)
    return MPI_T_ERR_INVALID;
  *handle = rank.next_handle++;
  found->second[*handle] = pvar_index;
  set(count, 1);
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  auto found = state(runtime).sessions.find(session);
  if (found == state(runtime).sessions.end())
    return MPI_T_ERR_INVALID_SESSION;
  if (handle == nullptr || found->second.erase(*handle) == 0)
    return MPI_T_ERR_INVALID_HANDLE;
  *handle = MPI_T_PVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
  return refuse_on_handle(session, handle, MPI_T_ERR_PVAR_NO_STARTSTOP);
}

extern "C" int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
  return refuse_on_handle(session, handle, MPI_T_ERR_PVAR_NO_STARTSTOP);
}

extern "C" int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  int error = MPI_SUCCESS;
  const int index = pvar_of(runtime, session, handle, error);
  if (index < 0)
    return error;
  if (buf == nullptr)
    return MPI_T_ERR_INVALID;
  const PerformanceVariable& variable = performance_variables()[static_cast<size_t>(index)];
  write_value(variable.datatype, variable.value(runtime, runtime.current_rank()), buf);
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void* /*buf*/)
{
  return refuse_on_handle(session, handle, MPI_T_ERR_PVAR_NO_WRITE);
}

extern "C" int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
  return refuse_on_handle(session, handle, MPI_T_ERR_PVAR_NO_WRITE);
}

extern "C" int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* /*buf*/)
{
  return refuse_on_handle(session, handle, MPI_T_ERR_PVAR_NO_WRITE);
}

// Categories ---------------------------------------------------------------------------------------------------------

extern "C" int PMPI_T_category_get_num(int* num_cat)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  set(num_cat, static_cast<int>(tool_categories().size()));
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_category_get_info(int cat_index, char* name, int* name_len, char* desc, int* desc_len,
                                        int* num_cvars, int* num_pvars, int* num_categories)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  if (not valid_index(tool_categories(), cat_index))
    return MPI_T_ERR_INVALID_INDEX;
  const ToolCategory& category = tool_categories()[static_cast<size_t>(cat_index)];
  write_string(category.name, name, name_len);
  write_string(category.description, desc, desc_len);
  set(num_cvars, static_cast<int>(category.cvars.size()));
  set(num_pvars, static_cast<int>(category.pvars.size()));
  set(num_categories, 0);
  return MPI_SUCCESS;
}

extern "C" int PMPI_T_category_get_index(const char* name, int* cat_index)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  return find_index(tool_categories(), name, cat_index);
}

extern "C" int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
  return category_list(cat_index, len, indices, &ToolCategory::cvars);
}

extern "C" int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
  return category_list(cat_index, len, indices, &ToolCategory::pvars);
}

// No category has subcategories.
extern "C" int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  if (not valid_index(tool_categories(), cat_index))
    return MPI_T_ERR_INVALID_INDEX;
  return len < 0 || (len > 0 && indices == nullptr) ? MPI_T_ERR_INVALID : MPI_SUCCESS;
}

// The categories never change during a run.
extern "C" int PMPI_T_category_changed(int* stamp)
{
  Runtime& runtime = Runtime::get();
  MPISIM_T_INITIALIZED(runtime);
  set(stamp, 0);
  return MPI_SUCCESS;
}

MPISIM_ALIAS(T_init_thread)
MPISIM_ALIAS(T_finalize)
MPISIM_ALIAS(T_enum_get_info)
MPISIM_ALIAS(T_enum_get_item)
MPISIM_ALIAS(T_cvar_get_num)
MPISIM_ALIAS(T_cvar_get_info)
MPISIM_ALIAS(T_cvar_get_index)
MPISIM_ALIAS(T_cvar_handle_alloc)
MPISIM_ALIAS(T_cvar_handle_free)
MPISIM_ALIAS(T_cvar_read)
MPISIM_ALIAS(T_cvar_write)
MPISIM_ALIAS(T_pvar_get_num)
MPISIM_ALIAS(T_pvar_get_info)
MPISIM_ALIAS(T_pvar_get_index)
MPISIM_ALIAS(T_pvar_session_create)
MPISIM_ALIAS(T_pvar_session_free)
MPISIM_ALIAS(T_pvar_handle_alloc)
MPISIM_ALIAS(T_pvar_handle_free)
MPISIM_ALIAS(T_pvar_start)
MPISIM_ALIAS(T_pvar_stop)
MPISIM_ALIAS(T_pvar_read)
MPISIM_ALIAS(T_pvar_write)
MPISIM_ALIAS(T_pvar_reset)
MPISIM_ALIAS(T_pvar_readreset)
MPISIM_ALIAS(T_category_get_num)
MPISIM_ALIAS(T_category_get_info)
MPISIM_ALIAS(T_category_get_index)
MPISIM_ALIAS(T_category_get_cvars)
MPISIM_ALIAS(T_category_get_pvars)
MPISIM_ALIAS(T_category_get_categories)
MPISIM_ALIAS(T_category_changed)
