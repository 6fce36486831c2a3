#include "kernel/MemoryContexts.hpp"

#include "kernel/Engine.hpp"

namespace mpisim::kernel {

MemoryContextScope::MemoryContextScope(Engine& engine, int id)
{
  MemoryContexts* contexts = engine.memory_contexts();
  if (contexts == nullptr || id == kNoMemoryContext || contexts->current() == id)
    return;
  contexts_ = contexts;
  if (const Actor* actor = engine.running())
    restore_ = actor->memory_context();
  contexts_->enter(id);
}

MemoryContextScope::~MemoryContextScope()
{
  if (contexts_ != nullptr && restore_ != kNoMemoryContext)
    contexts_->enter(restore_);
}

} // namespace mpisim::kernel
