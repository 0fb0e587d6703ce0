//===- DetectionParams.cpp - TFLite_Detection_PostProcess parameters ------===//
//
// TensorFlow Lite Micro's detection_postprocess.cc checks the operator when
// it prepares and evaluates it (float32 operands, ranks, one batch, a
// background class at most, thresholds and counts in range) and fails the
// invocation otherwise; here each check is an error before anything runs.
// The options become the kernel's parameters, and the kernel's working
// memory its size (ref_detection_postprocess_scratch_bytes).
//
//===----------------------------------------------------------------------===//
#include "kernels/OpContext.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdint>

namespace accelgen {
namespace kernels {
namespace detail {

using ir::DType;

llvm::Expected<KernelCall> detectionPostProcessOp(const OpContext &Ctx) {
  const ir::Operator &Op = Ctx.op();
  ACCELGEN_TRY(Boxes, Ctx.input(0));
  ACCELGEN_TRY(Scores, Ctx.input(1));
  ACCELGEN_TRY(Anchors, Ctx.input(2));
  for (const ir::Tensor *T : {Boxes, Scores, Anchors})
    if (T->Type != DType::F32)
      return unsupportedInput(Ctx, *T, "float32");
  if (llvm::Error E = requireRank(Ctx, *Boxes, 3, "the box encodings"))
    return std::move(E);
  if (llvm::Error E = requireRank(Ctx, *Scores, 3, "the class predictions"))
    return std::move(E);
  if (llvm::Error E = requireRank(Ctx, *Anchors, 2, "the anchors"))
    return std::move(E);
  const int32_t NumBoxes = Boxes->Shape[1];
  if (Boxes->Shape[0] != 1 || Boxes->Shape[2] < 4)
    return Ctx.error(llvm::formatv("the box encodings '{0}' have shape {1}; "
                                   "expected [1, boxes, 4 or more]",
                                   Boxes->Name, ir::formatShape(Boxes->Shape)));
  if (Scores->Shape[0] != 1 || Scores->Shape[1] != NumBoxes)
    return Ctx.error(llvm::formatv(
        "the class predictions '{0}' have shape {1}; expected [1, {2}, "
        "classes]",
        Scores->Name, ir::formatShape(Scores->Shape), NumBoxes));
  if (llvm::Error E =
          requireShape(Ctx, *Anchors, 2, "the anchors", {NumBoxes, 4}))
    return std::move(E);

  const int64_t NumClasses = Op.getInt(ir::attr::NumClasses, 0);
  const int64_t WithBackground = Scores->Shape[2];
  if (NumClasses < 1 || NumClasses > WithBackground ||
      WithBackground - NumClasses > 1)
    return Ctx.error(llvm::formatv(
        "num_classes is {0} for {1} class predictions per box; expected as "
        "many, or one fewer (a background class first)",
        NumClasses, WithBackground));
  const int64_t MaxDetections = Op.getInt(ir::attr::MaxDetections, 0);
  const int64_t PerDetection = Op.getInt(ir::attr::MaxClassesPerDetection, 0);
  const int64_t PerClass = Op.getInt(ir::attr::DetectionsPerClass, 100);
  const bool Regular = Op.getBool(ir::attr::UseRegularNms, false);
  const auto ScoreThreshold =
      static_cast<float>(Op.getFloat(ir::attr::NmsScoreThreshold, 0));
  const auto IouThreshold =
      static_cast<float>(Op.getFloat(ir::attr::NmsIouThreshold, 0));
  if (MaxDetections < 0 || MaxDetections > INT32_MAX)
    return Ctx.error(llvm::formatv("max_detections is {0}; expected 0 or "
                                   "more",
                                   MaxDetections));
  if (!(IouThreshold > 0.0f && IouThreshold <= 1.0f))
    return Ctx.error(llvm::formatv("nms_iou_threshold is {0}; expected more "
                                   "than 0 and at most 1",
                                   formatReal(IouThreshold)));
  if (Regular && (PerClass < 1 || PerClass > INT32_MAX))
    return Ctx.error(llvm::formatv("detections_per_class is {0}; the regular "
                                   "suppression needs 1 or more",
                                   PerClass));
  if (!Regular && (PerDetection < 1 || PerDetection > INT32_MAX))
    return Ctx.error(llvm::formatv("max_classes_per_detection is {0}; the "
                                   "fast suppression needs 1 or more",
                                   PerDetection));

  // Results: boxes [1, rows, 4], classes and scores [1, rows], the count [1].
  ACCELGEN_TRY(OutBoxes, Ctx.output(0));
  ACCELGEN_TRY(OutClasses, Ctx.output(1));
  ACCELGEN_TRY(OutScores, Ctx.output(2));
  ACCELGEN_TRY(OutCount, Ctx.output(3));
  const int32_t Rows =
      OutBoxes->Shape.size() == 3 ? OutBoxes->Shape[1] : int32_t(-1);
  const struct {
    const ir::Tensor *T;
    std::vector<int32_t> Shape;
    const char *Role;
  } Results[] = {{OutBoxes, {1, Rows, 4}, "detection_boxes"},
                 {OutClasses, {1, Rows}, "detection_classes"},
                 {OutScores, {1, Rows}, "detection_scores"},
                 {OutCount, {1}, "num_detections"}};
  for (const auto &R : Results) {
    if (R.T->Type != DType::F32)
      return Ctx.error(llvm::formatv("result {0} '{1}' is {2}; the kernel "
                                     "writes float32",
                                     R.Role, R.T->Name,
                                     ir::dtypeName(R.T->Type)));
    if (Rows < 0 || R.T->Shape != R.Shape)
      return Ctx.error(llvm::formatv(
          "result {0} '{1}' has shape {2}; expected [1, rows, 4] for the "
          "boxes, [1, rows] for the classes and the scores, [1] for the "
          "count",
          R.Role, R.T->Name, ir::formatShape(R.T->Shape)));
  }

  ref_detection_postprocess_params P{};
  P.num_boxes = NumBoxes;
  P.box_stride = Boxes->Shape[2];
  P.num_classes = static_cast<int32_t>(NumClasses);
  P.num_classes_with_background = static_cast<int32_t>(WithBackground);
  P.output_rows = Rows;
  P.max_detections = static_cast<int32_t>(MaxDetections);
  P.max_classes_per_detection = static_cast<int32_t>(
      std::min<int64_t>(std::max<int64_t>(PerDetection, 0), INT32_MAX));
  P.detections_per_class = static_cast<int32_t>(
      std::min<int64_t>(std::max<int64_t>(PerClass, 0), INT32_MAX));
  P.use_regular_nms = Regular ? 1 : 0;
  P.nms_score_threshold = ScoreThreshold;
  P.nms_iou_threshold = IouThreshold;
  P.y_scale = static_cast<float>(Op.getFloat(ir::attr::YScale, 0));
  P.x_scale = static_cast<float>(Op.getFloat(ir::attr::XScale, 0));
  P.h_scale = static_cast<float>(Op.getFloat(ir::attr::HScale, 0));
  P.w_scale = static_cast<float>(Op.getFloat(ir::attr::WScale, 0));
  const uint64_t Scratch = ref_detection_postprocess_scratch_bytes(&P);
  if (Scratch > static_cast<uint64_t>(INT32_MAX))
    return Ctx.error(llvm::formatv("its working memory would be {0} bytes, "
                                   "more than 2^31 - 1",
                                   Scratch));
  KernelCall Call = makeCall(P, {Op.input(0), Op.input(1), Op.input(2)});
  Call.ScratchBytes = static_cast<int64_t>(Scratch);
  return Call;
}

} // namespace detail
} // namespace kernels
} // namespace accelgen
