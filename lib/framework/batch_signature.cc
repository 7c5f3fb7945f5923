#include "schedkit/framework/batch_signature.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace schedkit::framework {

void BatchSignatureBuilder::Add(std::string_view key, std::string_view value) {
  for (Fragment& f : fragments_) {
    if (View(f.key_at, f.key_size) == key) {
      // The old value's bytes stay behind, unread.
      f.value_at = bytes_.size();
      f.value_size = value.size();
      bytes_.append(value);
      return;
    }
  }
  const size_t key_at = bytes_.size();
  bytes_.append(key);
  bytes_.append(value);
  fragments_.push_back(Fragment{key_at, key.size(), key_at + key.size(), value.size()});
}

std::string BatchSignatureBuilder::Finish() const {
  // Few fragments (one per signer key): sorting indices is cheap, and the
  // output is sized once.
  std::vector<const Fragment*> order;
  order.reserve(fragments_.size());
  size_t size = 0;
  for (const Fragment& f : fragments_) {
    order.push_back(&f);
    size += f.key_size + f.value_size + 2 * (20 + 1);
  }
  std::sort(order.begin(), order.end(), [this](const Fragment* a, const Fragment* b) {
    return View(a->key_at, a->key_size) < View(b->key_at, b->key_size);
  });
  std::string out(size, '\0');
  char* p = out.data();
  const auto put = [&](std::string_view part) {
    p = std::to_chars(p, out.data() + out.size(), part.size()).ptr;
    *p++ = ':';
    p = std::copy(part.begin(), part.end(), p);
  };
  for (const Fragment* f : order) {
    put(View(f->key_at, f->key_size));
    put(View(f->value_at, f->value_size));
  }
  out.resize(static_cast<size_t>(p - out.data()));
  return out;
}

}  // namespace schedkit::framework
