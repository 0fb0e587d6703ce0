/*===- ref_detection_postprocess.h - SSD box decoding and NMS -------------===*
 *
 * TensorFlow Lite's custom operator TFLite_Detection_PostProcess, as
 * TensorFlow Lite Micro's reference kernel computes it: the box encodings
 * are decoded against the anchors (centre-size encoding, in double), then
 * non-maximum suppression picks the detections, either per anchor on its
 * best classes (the fast form) or per class over every anchor (the regular
 * form, use_regular_nms). Every operand and result is float32.
 *
 * Besides its four results the kernel needs working memory, whose size
 * ref_detection_postprocess_scratch_bytes gives (the caller provides it,
 * 8-byte aligned); it allocates nothing.
 *
 * Where Micro's kernel fails the invocation (a decoded box without height
 * or width), this one, which has no error path, reports no detection: every
 * result element 0. Result rows Micro leaves unwritten are 0 here.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_DETECTION_POSTPROCESS_H
#define ACCELGEN_REF_DETECTION_POSTPROCESS_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The candidates the regular form keeps while it merges the classes (the
 * best max_detections so far and one class's selection), or the classes the
 * fast form reports per anchor, whichever is more. */
static inline size_t ref_detection_postprocess_candidates(
    const ref_detection_postprocess_params *p) {
  const int32_t per_class = p->detections_per_class < p->num_boxes
                                ? p->detections_per_class
                                : p->num_boxes;
  const int32_t per_anchor = p->max_classes_per_detection < p->num_classes
                                 ? p->max_classes_per_detection
                                 : p->num_classes;
  const size_t merged =
      (size_t)p->max_detections + (size_t)(per_class > 0 ? per_class : 0);
  const size_t best = (size_t)(per_anchor > 0 ? per_anchor : 0);
  return merged > best ? merged : best;
}

/* The bytes of working memory one call needs. */
static inline size_t ref_detection_postprocess_scratch_bytes(
    const ref_detection_postprocess_params *p) {
  const size_t n = (size_t)p->num_boxes;
  /* Decoded boxes, one class's scores, the kept scores, the kept indices,
   * their order, the merge sort's scratch, the selection, the candidates
   * (index, score, order, ordered scores) and a flag per box. */
  return n * 4 * sizeof(float) + n * 2 * sizeof(float) +
         n * 4 * sizeof(int32_t) +
         ref_detection_postprocess_candidates(p) *
             (2 * sizeof(int32_t) + 2 * sizeof(float)) +
         n;
}

void ref_detection_postprocess_f32(
    const ref_detection_postprocess_params *params, const float *box_encodings,
    const float *class_predictions, const float *anchors, void *scratch,
    float *detection_boxes, float *detection_classes, float *detection_scores,
    float *num_detections);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_DETECTION_POSTPROCESS_H */
