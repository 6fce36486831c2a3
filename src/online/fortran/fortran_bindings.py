#!/usr/bin/env python3
"""Generates the Fortran binding of mpisim's MPI library from the C header (src/online/fortran/README.md).

    fortran_bindings.py MPI_H SOURCE_DIR INCLUDE_DIR

writes SOURCE_DIR/fortran_bindings.cpp (a wrapper per C function of MPI_H, under every name Fortran compilers emit),
INCLUDE_DIR/mpif.h (the constants, valid in fixed and free form), INCLUDE_DIR/mpi.f90 (the `mpi` module, compiled
into mpi.mod there) and INCLUDE_DIR/mpi_f08.f90 (the `mpi_f08` module: explicit interfaces to the same routines, with
derived-type handles and an optional ierror).

Every `MPISIM_DECLARE(ret, Name, (params))` of mpi.h gets a wrapper, built from its C parameters by the rules of
`ARGUMENT_KINDS` (a C type -> how Fortran passes it); a parameter the rules cannot decide is named in `OVERRIDES`;
a function Fortran does not have, or whose wrapper is hand-written (api_fortran_special.cpp), is in `NOT_GENERATED`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Tuple

# ---- The declarative part ---------------------------------------------------------------------------------------

# C functions without a generated wrapper: C-only (handle and status conversion), or hand-written because Fortran's
# form differs from C's beyond argument passing (api_fortran_special.cpp).
NOT_GENERATED = {
    # C-only: Fortran has no f2c/c2f of its own handles
    "Status_f2c", "Status_c2f",
    # hand-written: Fortran's MPI_INIT has no argc/argv, MPI_PCONTROL no ierror, attributes are integers of
    # MPI_ADDRESS_KIND (C's are pointers), attribute callbacks take every argument by reference
    "Init", "Init_thread", "Pcontrol",
    "Comm_set_attr", "Comm_get_attr", "Type_set_attr", "Type_get_attr", "Win_set_attr", "Win_get_attr",
    "Attr_put", "Attr_get",
    # MPI_INFO_GET leaves the value alone when the key is absent and writes at most the value's length
    "Info_get",
    # hand-written in api_fortran_callbacks.cpp: the callbacks are Fortran procedures, called through trampolines
    "Comm_create_keyval", "Type_create_keyval", "Win_create_keyval", "Keyval_create", "Grequest_start",
    # hand-written: arrays of strings (argv), which MPI refuses anyway (api_dynamic_processes.cpp)
    "Comm_spawn", "Comm_spawn_multiple",
}

# Parameters whose Fortran form the C type alone does not give, by "Function.parameter".
#   statuses:N        an array of statuses, N of them written back (N: a parameter name, or *name for an output)
#   indices:N         0-based indices the call writes, made 1-based (N as above; "1" for a single index)
#   aint_from_int     MPI-1 routines whose Fortran address arguments are default INTEGERs: value in
#   aint_to_int       ... value out
#   aint_array_from_int:N  ... an array of N
#   weights           an integer array that may be MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY
#   string_out:MIN    a string the call writes, into a C buffer of at least MIN bytes
#   info_string       an info key or value: leading blanks are dropped too (MPI-3.1 section 9)
OVERRIDES = {
    "Waitall.statuses": "statuses:count",
    "Testall.statuses": "statuses:count",
    "Waitsome.statuses": "statuses:*outcount",
    "Testsome.statuses": "statuses:*outcount",
    "Waitsome.indices": "indices:*outcount",
    "Testsome.indices": "indices:*outcount",
    "Waitany.index": "indices:1",
    "Testany.index": "indices:1",
    "Type_hvector.stride": "aint_from_int",
    "Type_hindexed.displacements": "aint_array_from_int:count",
    "Type_struct.displacements": "aint_array_from_int:count",
    "Address.address": "aint_to_int",
    "Type_extent.extent": "aint_to_int",
    "Type_lb.displacement": "aint_to_int",
    "Type_ub.displacement": "aint_to_int",
    "Dist_graph_create_adjacent.sourceweights": "weights",
    "Dist_graph_create_adjacent.destweights": "weights",
    "Dist_graph_create.weights": "weights",
    "Dist_graph_neighbors.sourceweights": "weights",
    "Dist_graph_neighbors.destweights": "weights",
    "Info_set.key": "info_string",
    "Info_set.value": "info_string",
    "Info_get_valuelen.key": "info_string",
    "Info_delete.key": "info_string",
    "Info_get_nthkey.key": "string_out:MPI_MAX_INFO_KEY",
    "Get_processor_name.name": "string_out:MPI_MAX_PROCESSOR_NAME",
    "Error_string.string": "string_out:MPI_MAX_ERROR_STRING",
    "Get_library_version.version": "string_out:MPI_MAX_LIBRARY_VERSION_STRING",
    "Comm_get_name.comm_name": "string_out:MPI_MAX_OBJECT_NAME",
    "Type_get_name.name": "string_out:MPI_MAX_OBJECT_NAME",
    "Win_get_name.win_name": "string_out:MPI_MAX_OBJECT_NAME",
    "File_get_view.datarep": "string_out:MPI_MAX_DATAREP_STRING",
    "Open_port.port_name": "string_out:MPI_MAX_PORT_NAME",
    "Lookup_name.port_name": "string_out:MPI_MAX_PORT_NAME",
}

# Integer-like C types Fortran passes by reference: MPI_Fint for handles and INTEGER, 8-byte integers of
# MPI_ADDRESS_KIND, MPI_OFFSET_KIND, MPI_COUNT_KIND for the others.
INTEGER_TYPES = {"int", "MPI_Comm", "MPI_Datatype", "MPI_Op", "MPI_Request", "MPI_Group", "MPI_Errhandler",
                 "MPI_Info", "MPI_Win", "MPI_Message", "MPI_File", "MPI_Fint"}
WIDE_TYPES = {"MPI_Aint", "MPI_Offset", "MPI_Count"}

# ---- Reading mpi.h ------------------------------------------------------------------------------------------------


class Parameter(NamedTuple):
    c_type: str  # "const int*", "MPI_Comm", "void*" (arrays as pointers)
    name: str
    const: bool
    array: bool


class Function(NamedTuple):
    returns: str
    name: str  # without MPI_: "Send"
    parameters: List[Parameter]


DECLARATION = re.compile(r"MPISIM_DECLARE\(\s*([\w ]+?)\s*,\s*(\w+)\s*,\s*\((.*?)\)\)\s*\n", re.S)


def parse_parameter(text: str) -> Parameter:
    text = " ".join(text.split())
    array = "[" in text
    bracket = text.find("[")
    head = text[:bracket] if bracket >= 0 else text
    match = re.match(r"(.*?)(\w+)\s*$", head)
    assert match, text
    c_type, name = match.group(1).replace(" ", ""), match.group(2)
    const = c_type.startswith("const")
    c_type = c_type.replace("const", "", 1) if const else c_type
    c_type += "*" * text.count("[")  # int ranges[][3]: int**
    return Parameter(c_type, name, const, array)


def read_functions(header: str) -> List[Function]:
    functions = []
    for returns, name, parameters in DECLARATION.findall(header):
        if name.startswith("T_"):  # the tool information interface has no Fortran form (MPI-3.1 section 14.3)
            continue
        if parameters.strip() in ("", "void"):
            functions.append(Function(returns, name, []))
            continue
        if "..." in parameters:
            continue
        functions.append(Function(returns, name, [parse_parameter(p) for p in parameters.split(",")]))
    return functions


DEFINE = re.compile(r"^#define (MPI_\w+) (\(?-?\w+\)?)\s*(?:/\*.*)?$", re.M)


def read_constants(header: str) -> Dict[str, int]:
    """The integer constants of mpi.h (aliases resolved), in order of definition."""
    constants: Dict[str, int] = {}
    for name, value in DEFINE.findall(header):
        value = value.strip("()")
        if re.fullmatch(r"-?\d+", value):
            constants[name] = int(value)
        elif value in constants:
            constants[name] = constants[value]
    return constants


# ---- The C++ wrappers ---------------------------------------------------------------------------------------------


class Wrapper:
    """One wrapper's pieces: its parameters, the code before and after the C call, and the C call's arguments."""

    def __init__(self) -> None:
        self.parameters: List[str] = []
        self.hidden_lengths: List[str] = []
        self.before: List[str] = []
        self.after: List[str] = []
        self.arguments: List[str] = []


def count_expression(reference: str) -> str:
    return f"*{reference[1:]}" if reference.startswith("*") else f"*{reference}"


def add_parameter(wrapper: Wrapper, function: Function, parameter: Parameter) -> None:
    name, c_type = parameter.name, parameter.c_type
    override = OVERRIDES.get(f"{function.name}.{name}")
    const = "const " if parameter.const else ""
    base = c_type.rstrip("*")
    pointers = len(c_type) - len(base)
    if override and override.startswith("statuses:"):
        count = override.split(":")[1]
        wrapper.parameters.append(f"MPI_Fint* {name}")
        total = "*count" if count == "count" else "*incount"
        wrapper.before.append(f"StatusesOut {name}_(({name}), {total});")
        wrapper.arguments.append(f"{name}_.c()")
        written = count_expression(count)
        if count.startswith("*"):  # Waitsome/Testsome: none when the output count is MPI_UNDEFINED
            written = f"({written} == MPI_UNDEFINED ? 0 : {written})"
        if function.name == "Testall":
            written = f"(*flag ? {written} : 0)"
        wrapper.after.append(f"{name}_.write_back({written});")
    elif override and override.startswith("indices:"):
        count = override.split(":")[1]
        wrapper.parameters.append(f"MPI_Fint* {name}")
        wrapper.arguments.append(name)
        if count == "1":
            wrapper.after.append(f"if (result_ == MPI_SUCCESS) indices_to_fortran({name}, 1);")
        else:
            wrapper.after.append(f"if (result_ == MPI_SUCCESS && {count_expression(count)} != MPI_UNDEFINED) "
                                 f"indices_to_fortran({name}, {count_expression(count)});")
    elif override == "aint_from_int":
        wrapper.parameters.append(f"const MPI_Fint* {name}")
        wrapper.arguments.append(f"static_cast<MPI_Aint>(*{name})")
    elif override == "aint_to_int":
        wrapper.parameters.append(f"MPI_Fint* {name}")
        wrapper.before.append(f"MPI_Aint {name}_ = 0;")
        wrapper.arguments.append(f"&{name}_")
        wrapper.after.append(f"*{name} = static_cast<MPI_Fint>({name}_);")
    elif override and override.startswith("aint_array_from_int:"):
        count = override.split(":")[1]
        wrapper.parameters.append(f"const MPI_Fint* {name}")
        wrapper.before.append(f"const std::vector<MPI_Aint> {name}_({name}, {name} + std::max(*{count}, 0));")
        wrapper.arguments.append(f"{name}_.data()")
    elif override == "weights":
        wrapper.parameters.append(f"{const}MPI_Fint* {name}")
        wrapper.arguments.append(f"fortran::weights({name})")
    elif override and override.startswith("string_out:"):
        minimum = override.split(":")[1]
        wrapper.parameters.append(f"char* {name}")
        wrapper.hidden_lengths.append(f"size_t {name}_length")
        wrapper.before.append(f"StringOut {name}_({name}, {name}_length, {minimum});")
        wrapper.arguments.append(f"{name}_.c()")
        wrapper.after.append(f"{name}_.write_back();")
    elif override == "info_string":
        wrapper.parameters.append(f"const char* {name}")
        wrapper.hidden_lengths.append(f"size_t {name}_length")
        wrapper.before.append(f"const std::string {name}_ = info_string_in({name}, {name}_length);")
        wrapper.arguments.append(f"{name}_.c_str()")
    elif override:
        raise ValueError(f"unknown override {override} for {function.name}.{name}")
    elif c_type == "void*":  # a choice buffer, or an address the call writes (MPI_Alloc_mem's baseptr)
        wrapper.parameters.append(f"{const}void* {name}")
        wrapper.arguments.append(f"fortran::buffer({name})")
    elif c_type == "char*":
        if not parameter.const:
            raise ValueError(f"{function.name}.{name}: an output string needs an override (string_out:MIN)")
        wrapper.parameters.append(f"const char* {name}")
        wrapper.hidden_lengths.append(f"size_t {name}_length")
        wrapper.before.append(f"const std::string {name}_ = string_in({name}, {name}_length);")
        wrapper.arguments.append(f"{name}_.c_str()")
    elif c_type == "MPI_Status*":
        wrapper.parameters.append(f"MPI_Fint* {name}")
        if parameter.const or function.name.startswith("Status_set"):  # read (and updated)
            wrapper.before.append(f"StatusInOut {name}_({name});")
        else:
            wrapper.before.append(f"StatusOut {name}_({name});")
        wrapper.arguments.append(f"{name}_.c()")
    elif c_type == "int**" and name == "ranges":  # int ranges[][3]
        wrapper.parameters.append(f"int (*{name})[3]")
        wrapper.arguments.append(name)
    elif pointers == 0 and base in INTEGER_TYPES:
        wrapper.parameters.append(f"const MPI_Fint* {name}")
        wrapper.arguments.append(f"*{name}")
    elif pointers == 0 and base in WIDE_TYPES:
        wrapper.parameters.append(f"const {base}* {name}")
        wrapper.arguments.append(f"*{name}")
    elif pointers >= 1 and (base in INTEGER_TYPES or base in WIDE_TYPES or base.endswith("_function")):
        # arrays and outputs, same representation in both languages; callbacks are Fortran procedures called with
        # every argument by reference, as the C typedefs take them (MPI_User_function, error handlers)
        wrapper.parameters.append(f"{const}{c_type} {name}")
        wrapper.arguments.append(name)
    else:
        raise ValueError(f"{function.name}.{name}: no Fortran rule for C type {c_type}")


def wrapper_code(function: Function) -> Tuple[str, str]:
    """The wrapper's definition and the name of the function it defines (pmpi_<name>_)."""
    symbol = f"pmpi_{function.name.lower()}_"
    wrapper = Wrapper()
    for parameter in function.parameters:
        if function.name == "Pack_external" and parameter.name == "datarep":
            parameter = parameter._replace(c_type="char*", const=True)
        add_parameter(wrapper, function, parameter)
    call = f"PMPI_{function.name}({', '.join(wrapper.arguments)})"
    if function.returns in ("double", "MPI_Aint"):  # MPI_WTIME, MPI_WTICK, MPI_AINT_ADD, MPI_AINT_DIFF: functions
        parameters = ", ".join(wrapper.parameters)
        body = [f"  return {call};"]
        return f"extern \"C\" {function.returns} {symbol}({parameters})\n{{\n" + "\n".join(body) + "\n}\n", symbol
    parameters = ", ".join(wrapper.parameters + ["MPI_Fint* ierror"] + wrapper.hidden_lengths)
    body = ["  " + line for line in wrapper.before]
    if wrapper.after:  # the conversions back happen before ierror is set; destructors (StatusOut) at the end
        body.append(f"  const int result_ = {call};")
        body += ["  " + line for line in wrapper.after]
    else:
        body.append(f"  const int result_ = {call};")
    body.append("  set_ierror(ierror, result_);")
    return f"extern \"C\" void {symbol}({parameters})\n{{\n" + "\n".join(body) + "\n}\n", symbol


def bindings_source(functions: List[Function]) -> str:
    parts = ["// Generated by src/online/fortran/fortran_bindings.py from include/mpi.h: do not edit.",
             '#include "online/fortran/FortranArguments.hpp"', "", "#include <algorithm>", "#include <string>",
             "#include <vector>", "", "using namespace mpisim::online;", "using namespace mpisim::online::fortran;", ""]
    for function in functions:
        if function.name in NOT_GENERATED:
            continue
        if function.returns not in ("int", "double", "MPI_Aint"):  # MPI_Comm_f2c ...: C-only
            continue
        code, symbol = wrapper_code(function)
        parts.append(code)
        parts.append(f"MPISIM_FORTRAN_NAMES({function.name.lower()}, {function.name.upper()})")
        parts.append("")
    parts.append("// mpi_f08's == and /= on handles (one pair per handle type, the module's interfaces bind to them).")
    for handle in F08_HANDLES:
        for operator, symbol in (("eq", "=="), ("ne", "!=")):
            name = f"mpisim_f08_{handle.lower()}_{operator}"
            parts.append(f'extern "C" bool {name}(const MPI_Fint* a, const MPI_Fint* b)')
            parts.append(f"{{\n  return *a {symbol} *b;\n}}")
    return "\n".join(parts) + "\n"


# ---- mpif.h and the mpi module ------------------------------------------------------------------------------------

# C constants that are not Fortran's (or have another value in Fortran).
C_ONLY_CONSTANTS = {"MPI_F_STATUS_SIZE", "MPI_F_SOURCE", "MPI_F_TAG", "MPI_F_ERROR"}
FORTRAN_CONSTANTS = {  # Fortran's own
    "MPI_STATUS_SIZE": 6, "MPI_SOURCE": 1, "MPI_TAG": 2, "MPI_ERROR": 3,
    "MPI_ADDRESS_KIND": 8, "MPI_OFFSET_KIND": 8, "MPI_COUNT_KIND": 8, "MPI_INTEGER_KIND": 4,
}
# The common block of sentinels: FortranArguments.cpp knows this layout.
SENTINELS = ["MPI_BOTTOM", "MPI_IN_PLACE", "MPI_STATUS_IGNORE(MPI_STATUS_SIZE)",
             "MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)", "MPI_UNWEIGHTED", "MPI_WEIGHTS_EMPTY"]
# The LOGICAL constants of MPI-3.1's Fortran chapter (17): a subarray is passed as the compiler makes it (a
# contiguous copy for a non-contiguous section, as in any call without an interface), and nothing protects a buffer
# of a pending non-blocking call from the compiler's optimizations beyond what the program does.
FALSE_LOGICALS = ["MPI_SUBARRAYS_SUPPORTED", "MPI_ASYNC_PROTECTS_NONBLOCKING"]
# The arguments MPI_COMM_SPAWN and MPI_COMM_SPAWN_MULTIPLE may be given instead of arrays, in blocks of their own
# (the calls are refused whatever they get, so the library never looks for them): declaration, common block.
SPAWN_SENTINELS = [("CHARACTER*1 MPI_ARGV_NULL(1), MPI_ARGVS_NULL(1,1)", "MPISIM_ARGV_NULLS",
                    "MPI_ARGV_NULL, MPI_ARGVS_NULL"),
                   ("INTEGER MPI_ERRCODES_IGNORE(1)", "MPISIM_ERRCODES", "MPI_ERRCODES_IGNORE")]
# The predefined attribute callbacks, Fortran procedures of api_fortran_callbacks.cpp.
CALLBACKS = ["MPI_NULL_COPY_FN", "MPI_NULL_DELETE_FN", "MPI_DUP_FN", "MPI_COMM_NULL_COPY_FN", "MPI_COMM_NULL_DELETE_FN",
             "MPI_COMM_DUP_FN", "MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_NULL_DELETE_FN", "MPI_TYPE_DUP_FN",
             "MPI_WIN_NULL_COPY_FN", "MPI_WIN_NULL_DELETE_FN", "MPI_WIN_DUP_FN"]
FUNCTIONS = [("DOUBLE PRECISION", ["MPI_WTIME", "MPI_WTICK", "PMPI_WTIME", "PMPI_WTICK"]),
             ("INTEGER(KIND=MPI_ADDRESS_KIND)", ["MPI_AINT_ADD", "MPI_AINT_DIFF"])]


def fortran_line(text: str) -> str:
    """A statement valid in fixed form (columns 7 to 72) and in free form."""
    line = "      " + text
    assert len(line) <= 72, line
    return line


def mpif_header(constants: Dict[str, int]) -> str:
    lines = ["! mpisim's mpif.h, generated by src/online/fortran/fortran_bindings.py from",
             "! include/mpi.h: do not edit. Valid in fixed and free source form."]
    values = dict(FORTRAN_CONSTANTS)
    for name, value in constants.items():
        if name not in C_ONLY_CONSTANTS and name not in values:
            values[name] = value
    for name, value in values.items():
        lines.append(fortran_line(f"INTEGER {name}"))
        lines.append(fortran_line(f"PARAMETER ({name}={value})"))
    for name in SENTINELS:
        lines.append(fortran_line(f"INTEGER {name}"))
    # One block, declared a few entities per statement (each COMMON of the same name extends it): no continuation
    # lines, whose marks differ between the two source forms.
    for first, second in zip(SENTINELS[::2], SENTINELS[1::2]):
        lines.append(fortran_line(f"COMMON /MPISIM_SENTINELS/ {first.split('(')[0]}, {second.split('(')[0]}"))
    lines.append(fortran_line("SAVE /MPISIM_SENTINELS/"))
    for declaration, block, names in SPAWN_SENTINELS:
        lines += [fortran_line(declaration), fortran_line(f"COMMON /{block}/ {names}"), fortran_line(f"SAVE /{block}/")]
    for name in FALSE_LOGICALS:
        lines.append(fortran_line(f"LOGICAL {name}"))
        lines.append(fortran_line(f"PARAMETER ({name}=.FALSE.)"))
    for kind, names in FUNCTIONS:
        for name in names:
            lines.append(fortran_line(f"{kind} {name}"))
            lines.append(fortran_line(f"EXTERNAL {name}"))
    for name in CALLBACKS:
        lines.append(fortran_line(f"EXTERNAL {name}"))
    return "\n".join(lines) + "\n"


def mpi_module() -> str:
    return ("! The `mpi` module of mpisim, generated by src/online/fortran/fortran_bindings.py: do not edit.\n"
            "module mpi\n  implicit none\n  include 'mpif.h'\nend module mpi\n")


# ---- The mpi_f08 module ---------------------------------------------------------------------------------------------

# The handle types of mpi_f08 (MPI-3.1 section 17.2.4: a derived type with one INTEGER, MPI_VAL, the mpi module's
# handle), by C type name without MPI_.
F08_HANDLES = ["Comm", "Datatype", "Group", "Request", "Op", "Errhandler", "Info", "Win", "Message", "File"]
# The handle constants of mpi.h by type: every constant from the first to the last name of a range of definitions, or
# the names listed.
F08_HANDLE_RANGES = {"Datatype": ("MPI_DATATYPE_NULL", "MPI_UB"), "Op": ("MPI_OP_NULL", "MPI_NO_OP")}
F08_HANDLE_CONSTANTS = {
    "Comm": ["MPI_COMM_NULL", "MPI_COMM_WORLD", "MPI_COMM_SELF"], "Group": ["MPI_GROUP_NULL", "MPI_GROUP_EMPTY"],
    "Request": ["MPI_REQUEST_NULL"], "Info": ["MPI_INFO_NULL", "MPI_INFO_ENV"], "Win": ["MPI_WIN_NULL"],
    "File": ["MPI_FILE_NULL"],
    "Errhandler": ["MPI_ERRHANDLER_NULL", "MPI_ERRORS_ARE_FATAL", "MPI_ERRORS_RETURN"],
    "Message": ["MPI_MESSAGE_NULL", "MPI_MESSAGE_NO_PROC"],
}
# Integer parameters that are LOGICAL in Fortran.
F08_LOGICALS = {"flag", "commute", "reorder", "periods", "remain_dims", "weighted"}
# Not in mpi_f08: the MPI-1 routines MPI-3.0 removed or deprecated without an mpi_f08 form.
F08_LEFT_OUT = {"Address", "Type_extent", "Type_lb", "Type_ub", "Type_hvector", "Type_hindexed", "Type_struct",
                "Attr_put", "Attr_get", "Attr_delete", "Keyval_create", "Keyval_free", "Errhandler_create",
                "Errhandler_set", "Errhandler_get"}
# The routines written by hand in api_fortran_special.cpp and api_fortran_callbacks.cpp, in their mpi_f08 form:
# name -> dummy declarations, in order (ierror is added).
F08_SPECIAL = {
    "Init": [],
    "Init_thread": ["integer, intent(in) :: required", "integer, intent(out) :: provided"],
    "Comm_set_attr": ["type(MPI_Comm), intent(in) :: comm", "integer, intent(in) :: keyval",
                      "integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val"],
    "Comm_get_attr": ["type(MPI_Comm), intent(in) :: comm", "integer, intent(in) :: keyval",
                      "integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val", "logical, intent(out) :: flag"],
    "Type_set_attr": ["type(MPI_Datatype), intent(in) :: datatype", "integer, intent(in) :: keyval",
                      "integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val"],
    "Type_get_attr": ["type(MPI_Datatype), intent(in) :: datatype", "integer, intent(in) :: keyval",
                      "integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val", "logical, intent(out) :: flag"],
    "Win_set_attr": ["type(MPI_Win), intent(in) :: win", "integer, intent(in) :: keyval",
                     "integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val"],
    "Win_get_attr": ["type(MPI_Win), intent(in) :: win", "integer, intent(in) :: keyval",
                     "integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val", "logical, intent(out) :: flag"],
    "Info_get": ["type(MPI_Info), intent(in) :: info", "character(len=*), intent(in) :: key",
                 "integer, intent(in) :: valuelen", "character(len=*), intent(out) :: value",
                 "logical, intent(out) :: flag"],
    "Comm_create_keyval": ["external :: comm_copy_attr_fn", "external :: comm_delete_attr_fn",
                           "integer, intent(out) :: comm_keyval",
                           "integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state"],
    "Type_create_keyval": ["external :: type_copy_attr_fn", "external :: type_delete_attr_fn",
                           "integer, intent(out) :: type_keyval",
                           "integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state"],
    "Win_create_keyval": ["external :: win_copy_attr_fn", "external :: win_delete_attr_fn",
                          "integer, intent(out) :: win_keyval",
                          "integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state"],
    "Grequest_start": ["external :: query_fn", "external :: free_fn", "external :: cancel_fn",
                       "integer(kind=MPI_ADDRESS_KIND) :: extra_state", "type(MPI_Request), intent(out) :: request"],
    "Comm_spawn": ["character(len=*), intent(in) :: command", "character(len=*), intent(in) :: argv(*)",
                   "integer, intent(in) :: maxprocs", "type(MPI_Info), intent(in) :: info",
                   "integer, intent(in) :: root", "type(MPI_Comm), intent(in) :: comm",
                   "type(MPI_Comm), intent(out) :: intercomm", "integer :: array_of_errcodes(*)"],
    "Comm_spawn_multiple": ["integer, intent(in) :: count", "character(len=*), intent(in) :: array_of_commands(*)",
                            "character(len=*), intent(in) :: array_of_argv(count, *)",
                            "integer, intent(in) :: array_of_maxprocs(*)",
                            "type(MPI_Info), intent(in) :: array_of_info(*)", "integer, intent(in) :: root",
                            "type(MPI_Comm), intent(in) :: comm", "type(MPI_Comm), intent(out) :: intercomm",
                            "integer :: array_of_errcodes(*)"],
}


def f08_dummy(function: Function, parameter: Parameter) -> List[str]:
    """The declaration of one dummy argument of the mpi_f08 interface (a directive line first for choice buffers)."""
    name, c_type = f08_name(parameter.name), parameter.c_type
    override = OVERRIDES.get(f"{function.name}.{parameter.name}", "")
    base = c_type.rstrip("*")
    pointers = len(c_type) - len(base)
    intent = ", intent(in)" if pointers == 0 or (parameter.const and not parameter.array) else ""
    shape = "(*)" if parameter.array else ""
    if override.startswith("statuses:"):
        return [f"type(MPI_Status) :: {name}(*)"]
    if override.startswith("string_out:"):
        return [f"character(len=*) :: {name}"]
    if override == "info_string" or (c_type == "char*" and parameter.const):
        return [f"character(len=*), intent(in) :: {name}"]
    if c_type == "void*":  # a choice buffer: any type, kind and rank
        return [f"!GCC$ ATTRIBUTES NO_ARG_CHECK :: {name}", f"real :: {name}(*)"]
    if c_type == "MPI_Status*":
        return [f"type(MPI_Status){intent} :: {name}"]
    if c_type == "int**" and name == "ranges":
        return [f"integer{intent} :: {name}(3, *)"]
    if base.endswith("_function"):
        return [f"external :: {name}"]
    if base in WIDE_TYPES:
        kind = {"MPI_Aint": "MPI_ADDRESS_KIND", "MPI_Offset": "MPI_OFFSET_KIND", "MPI_Count": "MPI_COUNT_KIND"}[base]
        return [f"integer(kind={kind}){intent} :: {name}{shape}"]
    if base.startswith("MPI_") and base[4:] in F08_HANDLES:
        return [f"type({base}){intent} :: {name}{shape}"]
    if base in ("int", "MPI_Fint"):
        kind = "logical" if parameter.name in F08_LOGICALS else "integer"
        return [f"{kind}{intent} :: {name}{shape}"]
    raise ValueError(f"{function.name}.{parameter.name}: no mpi_f08 rule for C type {c_type}")


def f08_name(name: str) -> str:
    return "datatype" if name == "type" else name  # `type` would read as a declaration


def f08_interface(name: str, dummies: List[Tuple[str, List[str]]], result: Optional[str], ierror: bool) -> List[str]:
    names = [dummy for dummy, _ in dummies] + (["ierror"] if ierror else [])
    kind = f"{result} function" if result else "subroutine"
    lines = wrap(f"    {kind} MPI_{name}(", names, ")")
    lines.append("      import")
    lines.append("      implicit none")
    for _, declarations in dummies:
        lines += ["      " + declaration for declaration in declarations]
    if ierror:
        lines.append("      integer, optional, intent(out) :: ierror")
    lines.append(f"    end {kind.split()[-1]} MPI_{name}")
    return lines


def wrap(head: str, items: List[str], tail: str) -> List[str]:
    """`head` items joined by commas, then `tail`, in free-form lines of at most 100 characters."""
    lines, line = [], head
    for index, item in enumerate(items):
        piece = item + (", " if index + 1 < len(items) else "")
        if len(line) + len(piece) > 96:
            lines.append(line.rstrip() + " &")
            line = "        "
        line += piece
    lines.append(line + tail)
    return lines


def f08_handle_constants(constants: Dict[str, int]) -> Dict[str, str]:
    """Constant name -> its handle type, for the handle constants of mpi.h."""
    handles: Dict[str, str] = {}
    names = list(constants)
    for handle, (first, last) in F08_HANDLE_RANGES.items():
        for name in names[names.index(first):names.index(last) + 1]:
            handles[name] = handle
    for handle, listed in F08_HANDLE_CONSTANTS.items():
        for name in listed:
            if name in constants:
                handles[name] = handle
    return handles


def mpi_f08_module(functions: List[Function], constants: Dict[str, int]) -> str:
    lines = ["! The `mpi_f08` module of mpisim, generated by src/online/fortran/fortran_bindings.py: do not edit.",
             "module mpi_f08", "  use, intrinsic :: iso_c_binding, only: c_int, c_bool", "  implicit none", ""]
    for handle in F08_HANDLES:
        lines += [f"  type, bind(c) :: MPI_{handle}", "    integer(c_int) :: MPI_VAL", f"  end type MPI_{handle}"]
    lines += ["  ! the MPI_STATUS_SIZE integers of the mpi module, named",
              "  type, bind(c) :: MPI_Status",
              "    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR",
              f"    integer(c_int) :: mpisim_private({FORTRAN_CONSTANTS['MPI_STATUS_SIZE'] - 3})",
              "  end type MPI_Status", ""]
    values = dict(FORTRAN_CONSTANTS)
    for name, value in constants.items():
        if name not in C_ONLY_CONSTANTS and name not in values:
            values[name] = value
    handles = f08_handle_constants(constants)
    for name, value in values.items():
        if name in handles:
            lines.append(f"  type(MPI_{handles[name]}), parameter :: {name} = MPI_{handles[name]}({value})")
        else:
            lines.append(f"  integer, parameter :: {name} = {value}")
    lines += [f"  logical, parameter :: {name} = .false." for name in FALSE_LOGICALS]
    # the sentinels: the common block of mpif.h, with the same layout (FortranArguments.cpp knows it)
    lines += ["", "  integer :: MPI_BOTTOM, MPI_IN_PLACE",
              "  type(MPI_Status) :: MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE(1)",
              "  integer :: MPI_UNWEIGHTED(1), MPI_WEIGHTS_EMPTY(1)",
              "  common /MPISIM_SENTINELS/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, &",
              "    MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY", "  save /MPISIM_SENTINELS/"]
    for declaration, block, names in SPAWN_SENTINELS:
        kind, entities = declaration.split(" ", 1)
        kind = "character(len=1)" if kind == "CHARACTER*1" else kind.lower()
        lines += [f"  {kind} :: {entities}", f"  common /{block}/ {names}", f"  save /{block}/"]
    lines.append("")
    lines.append("  external :: " + ", ".join(CALLBACKS[:3]))
    lines.append("  external :: " + ", ".join(CALLBACKS[3:8]))
    lines.append("  external :: " + ", ".join(CALLBACKS[8:]))
    lines.append("")
    for operator in ("==", "/="):
        suffix = "eq" if operator == "==" else "ne"
        lines.append(f"  interface operator({operator})")
        for handle in F08_HANDLES:
            lines += [f"    logical(c_bool) function mpisim_{handle.lower()}_{suffix}(a, b) &",
                      f"        bind(c, name=\"mpisim_f08_{handle.lower()}_{suffix}\")",
                      "      import", "      implicit none", f"      type(MPI_{handle}), intent(in) :: a, b",
                      f"    end function mpisim_{handle.lower()}_{suffix}"]
        lines.append("  end interface")
    lines += ["", "  interface"]
    for name, declarations in F08_SPECIAL.items():
        dummies = [(declaration.split("::")[1].split("(")[0].strip(), [declaration]) for declaration in declarations]
        lines += f08_interface(name, dummies, None, True)
    lines += f08_interface("Pcontrol", [("level", ["integer, intent(in) :: level"])], None, False)
    for function in functions:
        if function.name in NOT_GENERATED or function.name in F08_LEFT_OUT:
            continue
        if function.returns not in ("int", "double", "MPI_Aint"):
            continue
        if any(OVERRIDES.get(f"{function.name}.{p.name}", "").startswith("aint_") for p in function.parameters):
            continue
        dummies = [(f08_name(p.name), f08_dummy(function, p)) for p in function.parameters]
        if function.returns == "int":
            lines += f08_interface(function.name, dummies, None, True)
        else:
            result = "double precision" if function.returns == "double" else "integer(kind=MPI_ADDRESS_KIND)"
            lines += f08_interface(function.name, dummies, result, False)
    lines += ["  end interface", "end module mpi_f08"]
    return "\n".join(lines) + "\n"


def main(argv: List[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    header = Path(argv[1]).read_text()
    sources, includes = Path(argv[2]), Path(argv[3])
    sources.mkdir(parents=True, exist_ok=True)
    includes.mkdir(parents=True, exist_ok=True)
    write_if_changed(sources / "fortran_bindings.cpp", bindings_source(read_functions(header)))
    write_if_changed(includes / "mpif.h", mpif_header(read_constants(header)))
    write_if_changed(includes / "mpi.f90", mpi_module())
    write_if_changed(includes / "mpi_f08.f90", mpi_f08_module(read_functions(header), read_constants(header)))
    return 0


def write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
