//===- Graph.cpp - accelgen's Graph IR
//-------------------------------------===//
#include "ir/Graph.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdint>
#include <cstring>

namespace accelgen {
namespace ir {

int64_t Tensor::numElements() const {
  // Saturates instead of overflowing, so that an unchecked shape read from a
  // file cannot cause undefined behaviour; the verifier rejects such shapes.
  int64_t N = 1;
  for (int32_t D : Shape) {
    if (D < 0)
      return -1;
    if (__builtin_mul_overflow(N, static_cast<int64_t>(D), &N))
      return INT64_MAX;
  }
  return N;
}

uint8_t Tensor::stateFillByte() const {
  if (Type != DType::I8 || !Quant)
    return 0;
  return static_cast<uint8_t>(static_cast<int8_t>(Quant->zeroPoint()));
}

std::optional<int64_t> Tensor::intAt(int64_t I) const {
  const int64_t Size = Type == DType::I32 ? 4 : Type == DType::I64 ? 8 : 0;
  if (!IsConstant || Size == 0 || I < 0 ||
      I >= static_cast<int64_t>(Data.size()) / Size)
    return std::nullopt;
  if (Size == 4)
    return static_cast<int32_t>(
        llvm::support::endian::read32le(Data.data() + 4 * I));
  return static_cast<int64_t>(
      llvm::support::endian::read64le(Data.data() + 8 * I));
}

std::optional<int32_t> rowShift(const Graph &G, const Operator &Op) {
  const int32_t P = Op.input(1);
  if (!G.isValidTensor(P))
    return std::nullopt;
  const Tensor &T = G.tensor(P);
  if (T.Shape != std::vector<int32_t>{4, 2})
    return std::nullopt;
  const std::optional<int64_t> Before = T.intAt(2);
  if (!Before || *Before < 0 || *Before >= (1 << 15))
    return std::nullopt;
  return static_cast<int32_t>(*Before);
}

OpCode Operator::code() const {
  return Opaque ? OpCode::Unknown : opCodeOf(Type);
}

bool Operator::hasAttr(llvm::StringRef Name) const {
  return Attrs.count(Name.str()) != 0;
}

namespace {
template <typename T>
const T *findAttr(const std::map<std::string, AttrValue> &Attrs,
                  llvm::StringRef Name) {
  auto It = Attrs.find(Name.str());
  if (It == Attrs.end())
    return nullptr;
  return std::get_if<T>(&It->second);
}
} // namespace

int64_t Operator::getInt(llvm::StringRef Name, int64_t Default) const {
  const int64_t *V = findAttr<int64_t>(Attrs, Name);
  return V ? *V : Default;
}

double Operator::getFloat(llvm::StringRef Name, double Default) const {
  const double *V = findAttr<double>(Attrs, Name);
  return V ? *V : Default;
}

bool Operator::getBool(llvm::StringRef Name, bool Default) const {
  const bool *V = findAttr<bool>(Attrs, Name);
  return V ? *V : Default;
}

std::string Operator::getString(llvm::StringRef Name,
                                llvm::StringRef Default) const {
  const std::string *V = findAttr<std::string>(Attrs, Name);
  return V ? *V : Default.str();
}

std::vector<int64_t> Operator::getInts(llvm::StringRef Name) const {
  const std::vector<int64_t> *V = findAttr<std::vector<int64_t>>(Attrs, Name);
  return V ? *V : std::vector<int64_t>();
}

std::string formatAttr(const AttrValue &V) {
  if (auto *I = std::get_if<int64_t>(&V))
    return std::to_string(*I);
  if (auto *D = std::get_if<double>(&V))
    return llvm::formatv("{0}", *D).str();
  if (auto *B = std::get_if<bool>(&V))
    return *B ? "true" : "false";
  if (auto *S = std::get_if<std::string>(&V))
    return *S;
  std::string Out = "[";
  for (int64_t I : std::get<std::vector<int64_t>>(V))
    Out += (Out.size() > 1 ? "," : "") + std::to_string(I);
  return Out + "]";
}

std::string formatShape(const std::vector<int32_t> &Shape) {
  if (Shape.empty())
    return "scalar";
  std::string S;
  for (size_t I = 0; I < Shape.size(); ++I) {
    if (I)
      S += 'x';
    S += std::to_string(Shape[I]);
  }
  return S;
}

std::vector<uint8_t> unpackInt4(llvm::ArrayRef<uint8_t> Packed,
                                int64_t Count) {
  std::vector<uint8_t> Values(static_cast<size_t>(Count));
  for (int64_t I = 0; I < Count; ++I) {
    const uint8_t Byte = Packed[size_t(I / 2)];
    const uint8_t Nibble = I % 2 ? Byte >> 4 : Byte & 0xF;
    // Sign-extend the nibble: 8 to 15 are -8 to -1.
    Values[size_t(I)] = Nibble >= 8 ? uint8_t(Nibble | 0xF0) : Nibble;
  }
  return Values;
}

std::vector<uint8_t> packInt4(llvm::ArrayRef<uint8_t> Values) {
  std::vector<uint8_t> Packed((Values.size() + 1) / 2, 0);
  for (size_t I = 0; I < Values.size(); ++I)
    Packed[I / 2] |= uint8_t((Values[I] & 0xF) << (I % 2 ? 4 : 0));
  return Packed;
}

std::vector<uint8_t> transposeElements(llvm::ArrayRef<uint8_t> Data,
                                       llvm::ArrayRef<int64_t> Dims,
                                       llvm::ArrayRef<int32_t> Perm,
                                       size_t ElementSize) {
  size_t Rank = Dims.size();
  std::vector<int64_t> Strides(Rank, 1), OutDims(Rank), Index(Rank, 0);
  for (size_t I = Rank; I-- > 1;)
    Strides[I - 1] = Strides[I] * Dims[I];
  for (size_t I = 0; I < Rank; ++I)
    OutDims[I] = Dims[Perm[I]];
  std::vector<uint8_t> Out(Data.size());
  for (size_t O = 0; (O + 1) * ElementSize <= Data.size(); ++O) {
    int64_t Src = 0;
    for (size_t I = 0; I < Rank; ++I)
      Src += Index[I] * Strides[Perm[I]];
    std::memcpy(Out.data() + O * ElementSize, Data.data() + Src * ElementSize,
                ElementSize);
    for (size_t I = Rank; I-- > 0;) {
      if (++Index[I] < OutDims[I])
        break;
      Index[I] = 0;
    }
  }
  return Out;
}

} // namespace ir
} // namespace accelgen
