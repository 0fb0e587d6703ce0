//===- XnnpackLayerBench.cpp - A model's layers on XNNPACK ----------------===//
//
// The benchmark peer of bench/layers.sh: every int8 or uint8 CONV_2D,
// DEPTHWISE_CONV_2D and FULLY_CONNECTED of a TensorFlow Lite model as an
// XNNPACK operator with the layer's shapes, strides, padding, zero points,
// scales, weights and bias (qc8 for per-channel int8 convolutions, qs8 and
// qu8 otherwise; a per-channel fully connected layer, which this XNNPACK has
// no operator for, gets qs8 with its first channel's scale, which changes
// nothing in its time), run single-threaded on zero inputs. Prints, per
// layer, `op INDEX TYPE KHxKW MACS MEAN_US` (KHxKW "-" for a fully
// connected layer) with the mean of REPEAT runs after one warm-up; layers
// XNNPACK refuses are reported on stderr and left out.
//
// Usage: accelgen-bench-xnnpack MODEL.tflite [REPEAT]
//
//===----------------------------------------------------------------------===//
#include "import/TFLiteImporter.h"
#include "kernels/KernelParams.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <xnnpack.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

using namespace accelgen;

namespace {

double nowUs() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The constant int32 data of tensor \p T (the bias), or zeros.
std::vector<int32_t> biasOf(const ir::Graph &G, int32_t T, size_t N) {
  std::vector<int32_t> B(N, 0);
  if (T >= 0 && G.tensor(T).Data.size() == 4 * N)
    std::copy_n(reinterpret_cast<const int32_t *>(G.tensor(T).Data.data()), N,
                B.data());
  return B;
}

/// Padding past the input's end along one axis.
uint32_t padAfter(int64_t In, int64_t Out, int64_t K, int64_t S, int64_t D,
                  int64_t Before) {
  const int64_t Need = (Out - 1) * S + (K - 1) * D + 1 - In - Before;
  return uint32_t(std::max<int64_t>(Need, 0));
}

struct Layer {
  size_t Index;
  std::string Type;
  int64_t Macs;
  /// The filter's height x width ("1x1"; "-" for a fully connected layer).
  std::string Window = "-";
  xnn_operator_t Op = nullptr;
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: accelgen-bench-xnnpack MODEL.tflite [REPEAT]\n";
    return 1;
  }
  const int Repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20;
  auto M = tflite::importModelFile(argv[1]);
  if (!M) {
    llvm::errs() << "error: " << argv[1] << ": "
                 << llvm::toString(M.takeError()) << "\n";
    return 1;
  }
  if (xnn_initialize(nullptr) != xnn_status_success) {
    llvm::errs() << "error: xnn_initialize failed\n";
    return 1;
  }
  const ir::Graph &G = M->Model->main();
  std::vector<Layer> Layers;
  size_t MaxBytes = 1;
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    const ir::Operator &Op = G.Operators[I];
    const bool Conv = Op.Type == "CONV_2D", Dw = Op.Type == "DEPTHWISE_CONV_2D",
               Fc = Op.Type == "FULLY_CONNECTED";
    if (!Conv && !Dw && !Fc)
      continue;
    llvm::Expected<kernels::KernelCall> Call =
        kernels::computeKernelCall(G, Op);
    if (!Call) {
      llvm::consumeError(Call.takeError());
      continue;
    }
    const ir::Tensor &In = G.tensor(Op.Inputs[0]), &W = G.tensor(Op.Inputs[1]),
                     &Out = G.tensor(Op.Outputs[0]);
    if (!In.Quant || !W.Quant || !Out.Quant || !W.IsConstant)
      continue;
    const bool U8 = In.Type == ir::DType::U8;
    const bool PerChannel = W.Quant->isPerChannel();
    const int32_t Bias = Op.Inputs.size() > 2 ? Op.Inputs[2] : -1;
    const float InScale = In.Quant->scale(), OutScale = Out.Quant->scale();
    const int InZp = int(In.Quant->zeroPoint()),
              OutZp = int(Out.Quant->zeroPoint());
    const int Lo = U8 ? 0 : -128, Hi = U8 ? 255 : 127;
    Layer L{I, Op.Type, 0};
    xnn_status S = xnn_status_unsupported_parameter;
    MaxBytes = std::max<size_t>(
        MaxBytes, std::max<size_t>(In.byteSize(), Out.byteSize()));
    if (Fc) {
      const size_t N = W.Shape[0], K = W.Shape[1], Rows = In.numElements() / K;
      L.Macs = int64_t(Rows) * N * K;
      std::vector<int32_t> B = biasOf(G, Bias, N);
      if (U8)
        S = xnn_create_fully_connected_nc_qu8(
            K, N, K, N, uint8_t(InZp), InScale, uint8_t(W.Quant->zeroPoint()),
            W.Quant->scale(), W.Data.data(), B.data(), uint8_t(OutZp), OutScale,
            Lo, Hi, 0, &L.Op);
      else
        S = xnn_create_fully_connected_nc_qs8(
            K, N, K, N, int8_t(InZp), InScale, W.Quant->scale(),
            reinterpret_cast<const int8_t *>(W.Data.data()), B.data(),
            int8_t(OutZp), OutScale, Lo, Hi, 0, &L.Op);
      if (S != xnn_status_success)
        llvm::errs() << "operator " << I << " (" << Op.Type
                     << "): XNNPACK refuses it\n";
      else
        Layers.push_back(L);
      continue;
    }
    int64_t SH, SW, DH, DWd, PT, PL;
    if (Conv) {
      const auto &C =
          std::get<kernels::FamilyParams<ref_conv2d_params>>(Call->Params)
              .Scalars;
      SH = C.stride_h, SW = C.stride_w, DH = C.dilation_h, DWd = C.dilation_w,
      PT = C.pad_top, PL = C.pad_left;
    } else {
      const auto &C =
          std::get<kernels::FamilyParams<ref_depthwise_conv2d_params>>(
              Call->Params)
              .Scalars;
      SH = C.stride_h, SW = C.stride_w, DH = C.dilation_h, DWd = C.dilation_w,
      PT = C.pad_top, PL = C.pad_left;
    }
    const int64_t IH = In.Shape[1], IW = In.Shape[2], IC = In.Shape[3],
                  OH = Out.Shape[1], OW = Out.Shape[2], OC = Out.Shape[3],
                  KH = W.Shape[1], KW = W.Shape[2];
    const uint32_t PB = padAfter(IH, OH, KH, SH, DH, PT),
                   PR = padAfter(IW, OW, KW, SW, DWd, PL);
    const uint32_t Groups = Dw ? uint32_t(IC) : 1;
    const size_t GroupIn = Dw ? 1 : IC, GroupOut = Dw ? OC / IC : OC;
    L.Macs = In.Shape[0] * OH * OW * OC * KH * KW * (Dw ? 1 : IC);
    L.Window = std::to_string(KH) + "x" + std::to_string(KW);
    std::vector<int32_t> B = biasOf(G, Bias, OC);
    const uint32_t Flags = Dw ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0;
    if (U8) {
      S = xnn_create_convolution2d_nhwc_qu8(
          PT, PR, PB, PL, KH, KW, SH, SW, DH, DWd, Groups, GroupIn, GroupOut,
          IC, OC, uint8_t(InZp), InScale, uint8_t(W.Quant->zeroPoint()),
          W.Quant->scale(), W.Data.data(), B.data(), uint8_t(OutZp), OutScale,
          Lo, Hi, Flags, &L.Op);
    } else if (PerChannel) {
      std::vector<float> Scales(W.Quant->Scales.begin(), W.Quant->Scales.end());
      S = xnn_create_convolution2d_nhwc_qc8(
          PT, PR, PB, PL, KH, KW, SH, SW, DH, DWd, Groups, GroupIn, GroupOut,
          IC, OC, int8_t(InZp), InScale, Scales.data(),
          reinterpret_cast<const int8_t *>(W.Data.data()), B.data(),
          int8_t(OutZp), OutScale, Lo, Hi, Flags, &L.Op);
    } else {
      S = xnn_create_convolution2d_nhwc_qs8(
          PT, PR, PB, PL, KH, KW, SH, SW, DH, DWd, Groups, GroupIn, GroupOut,
          IC, OC, int8_t(InZp), InScale, W.Quant->scale(),
          reinterpret_cast<const int8_t *>(W.Data.data()), B.data(),
          int8_t(OutZp), OutScale, Lo, Hi, Flags, &L.Op);
    }
    if (S != xnn_status_success) {
      llvm::errs() << "operator " << I << " (" << Op.Type
                   << "): XNNPACK refuses it\n";
      continue;
    }
    Layers.push_back(L);
  }

  std::vector<uint8_t> InBuf(MaxBytes, 0), OutBuf(MaxBytes, 0);
  for (Layer &L : Layers) {
    const ir::Operator &Op = G.Operators[L.Index];
    const ir::Tensor &In = G.tensor(Op.Inputs[0]);
    const bool U8 = In.Type == ir::DType::U8;
    xnn_status S;
    if (L.Type == "FULLY_CONNECTED") {
      const size_t K = G.tensor(Op.Inputs[1]).Shape[1],
                   Rows = In.numElements() / K;
      S = U8 ? xnn_setup_fully_connected_nc_qu8(L.Op, Rows, InBuf.data(),
                                                OutBuf.data(), nullptr)
             : xnn_setup_fully_connected_nc_qs8(
                   L.Op, Rows, reinterpret_cast<int8_t *>(InBuf.data()),
                   reinterpret_cast<int8_t *>(OutBuf.data()), nullptr);
    } else if (U8) {
      S = xnn_setup_convolution2d_nhwc_qu8(L.Op, In.Shape[0], In.Shape[1],
                                           In.Shape[2], InBuf.data(),
                                           OutBuf.data(), nullptr);
    } else if (G.tensor(Op.Inputs[1]).Quant->isPerChannel()) {
      S = xnn_setup_convolution2d_nhwc_qc8(
          L.Op, In.Shape[0], In.Shape[1], In.Shape[2],
          reinterpret_cast<int8_t *>(InBuf.data()),
          reinterpret_cast<int8_t *>(OutBuf.data()), nullptr);
    } else {
      S = xnn_setup_convolution2d_nhwc_qs8(
          L.Op, In.Shape[0], In.Shape[1], In.Shape[2],
          reinterpret_cast<int8_t *>(InBuf.data()),
          reinterpret_cast<int8_t *>(OutBuf.data()), nullptr);
    }
    if (S != xnn_status_success) {
      llvm::errs() << "operator " << L.Index << " (" << L.Type
                   << "): XNNPACK cannot set it up\n";
      continue;
    }
    xnn_run_operator(L.Op, nullptr);
    const double Start = nowUs();
    for (int R = 0; R < Repeat; ++R)
      xnn_run_operator(L.Op, nullptr);
    llvm::outs() << "op " << L.Index << " " << L.Type << " " << L.Window << " "
                 << L.Macs << " "
                 << llvm::format("%.2f", (nowUs() - Start) / Repeat) << "\n";
  }
  for (Layer &L : Layers)
    xnn_delete_operator(L.Op);
  return 0;
}
