/*===- ref_detection_postprocess.c - SSD box decoding and NMS -------------===*
 *
 * The steps and their arithmetic are those of TensorFlow Lite Micro's
 * detection_postprocess.cc: decoding in double rounded to float,
 * intersection over union in float, the kept scores ordered by a stable
 * descending merge sort, partial orders by score then index. Partial orders
 * pick the best remaining element k times (they need no memory); with
 * scores that are numbers this is the unique order Micro's partial sort
 * gives, while a NaN class score (which has no place in that order) may be
 * ranked differently.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_detection_postprocess.h"

#include <math.h>
#include <string.h>

/* A decoded box: its corners. */
typedef struct dp_box {
  float ymin, xmin, ymax, xmax;
} dp_box;

/* The working memory, carved from the caller's scratch in the order
 * ref_detection_postprocess_scratch_bytes counts it. */
typedef struct dp_work {
  dp_box *boxes;
  float *class_scores, *keep_scores;
  int32_t *keep_indices, *order, *merge, *selected;
  int32_t *cand_index, *cand_order;
  float *cand_score, *cand_sorted;
  uint8_t *active;
} dp_work;

/* The next `bytes` of the scratch at *at. */
static void *dp_take(uint8_t **at, size_t bytes) {
  void *p = *at;
  *at += bytes;
  return p;
}

static dp_work dp_carve(const ref_detection_postprocess_params *p,
                        void *scratch) {
  const size_t n = (size_t)p->num_boxes;
  const size_t c = ref_detection_postprocess_candidates(p);
  uint8_t *at = (uint8_t *)scratch;
  dp_work w;
  w.boxes = (dp_box *)dp_take(&at, n * sizeof(dp_box));
  w.class_scores = (float *)dp_take(&at, n * sizeof(float));
  w.keep_scores = (float *)dp_take(&at, n * sizeof(float));
  w.keep_indices = (int32_t *)dp_take(&at, n * sizeof(int32_t));
  w.order = (int32_t *)dp_take(&at, n * sizeof(int32_t));
  w.merge = (int32_t *)dp_take(&at, n * sizeof(int32_t));
  w.selected = (int32_t *)dp_take(&at, n * sizeof(int32_t));
  w.cand_index = (int32_t *)dp_take(&at, c * sizeof(int32_t));
  w.cand_order = (int32_t *)dp_take(&at, c * sizeof(int32_t));
  w.cand_score = (float *)dp_take(&at, c * sizeof(float));
  w.cand_sorted = (float *)dp_take(&at, c * sizeof(float));
  w.active = (uint8_t *)dp_take(&at, n);
  return w;
}

/* Centre-size encodings (y, x, h, w) against the anchors (the same), to
 * corners; 0 when a box has no height or width (Micro's ValidateBoxes). */
static int dp_decode(const ref_detection_postprocess_params *p,
                     const float *encodings, const float *anchors,
                     dp_box *boxes) {
  int valid = 1;
  int32_t i;
  for (i = 0; i < p->num_boxes; ++i) {
    const float *e = encodings + (size_t)i * (size_t)p->box_stride;
    const float *a = anchors + (size_t)i * 4;
    const float ycenter =
        (float)((double)e[0] / (double)p->y_scale * (double)a[2] +
                (double)a[0]);
    const float xcenter =
        (float)((double)e[1] / (double)p->x_scale * (double)a[3] +
                (double)a[1]);
    const float half_h =
        (float)(0.5 * exp((double)e[2] / (double)p->h_scale) * (double)a[2]);
    const float half_w =
        (float)(0.5 * exp((double)e[3] / (double)p->w_scale) * (double)a[3]);
    dp_box *b = &boxes[i];
    b->ymin = ycenter - half_h;
    b->xmin = xcenter - half_w;
    b->ymax = ycenter + half_h;
    b->xmax = xcenter + half_w;
    if (b->ymin >= b->ymax || b->xmin >= b->xmax)
      valid = 0;
  }
  return valid;
}

/* std::max and std::min on floats, operand order included. */
static float dp_max(float a, float b) { return a < b ? b : a; }
static float dp_min(float a, float b) { return b < a ? b : a; }

static float dp_iou(const dp_box *boxes, int32_t i, int32_t j) {
  const dp_box *a = &boxes[i], *b = &boxes[j];
  const float area_a = (a->ymax - a->ymin) * (a->xmax - a->xmin);
  const float area_b = (b->ymax - b->ymin) * (b->xmax - b->xmin);
  float inter;
  if (area_a <= 0 || area_b <= 0)
    return 0.0f;
  inter = dp_max(dp_min(a->ymax, b->ymax) - dp_max(a->ymin, b->ymin), 0.0f) *
          dp_max(dp_min(a->xmax, b->xmax) - dp_max(a->xmin, b->xmin), 0.0f);
  return inter / (area_a + area_b - inter);
}

/* Element i before element j: by value, descending, then by index. */
static int dp_before(const float *v, int32_t i, int32_t j) {
  return v[j] < v[i] || (!(v[i] < v[j]) && i < j);
}

/* The first k of the n indices of v in dp_before's order. */
static void dp_partial_order(const float *v, int32_t n, int32_t k,
                             int32_t *out) {
  int32_t r, i;
  for (r = 0; r < k; ++r) {
    int32_t best = -1;
    for (i = 0; i < n; ++i) {
      if (r > 0 && !dp_before(v, out[r - 1], i))
        continue;
      if (best < 0 || dp_before(v, i, best))
        best = i;
    }
    out[r] = best;
  }
}

/* Micro's DecreasingArgSort: a top-down merge sort of indices by v,
 * descending and stable, insertion-sorting runs shorter than 20. */
static void dp_insertion_sort(int32_t *a, int32_t n, const float *v) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t x = a[i];
    int32_t first = 0, len = i;
    while (len > 0) {
      const int32_t half = len >> 1;
      if (v[x] > v[a[first + half]]) {
        len = half;
      } else {
        first += half + 1;
        len -= half + 1;
      }
    }
    memmove(a + first + 1, a + first, (size_t)(i - first) * sizeof(int32_t));
    a[first] = x;
  }
}

static void dp_merge_sort(int32_t *a, int32_t *tmp, int32_t n, const float *v) {
  int32_t half, left, right, i;
  if (n < 20) {
    dp_insertion_sort(a, n, v);
    return;
  }
  half = n / 2;
  dp_merge_sort(a, tmp, half, v);
  dp_merge_sort(a + half, tmp, n - half, v);
  left = 0;
  right = half;
  for (i = 0; i < n; ++i) {
    if (left >= half || (right < n && v[a[right]] > v[a[left]]))
      tmp[i] = a[right++];
    else
      tmp[i] = a[left++];
  }
  memcpy(a, tmp, (size_t)n * sizeof(int32_t));
}

/* Non-maximum suppression of the boxes on one score each: at most
 * max_detections indices into w->selected, best first; returns how many. */
static int32_t dp_suppress(const ref_detection_postprocess_params *p,
                           const dp_work *w, const float *scores,
                           int32_t max_detections) {
  int32_t kept = 0, selected = 0, active, output_size, i, j;
  for (i = 0; i < p->num_boxes; ++i)
    if (scores[i] >= p->nms_score_threshold) {
      w->keep_scores[kept] = scores[i];
      w->keep_indices[kept] = i;
      ++kept;
    }
  for (i = 0; i < kept; ++i)
    w->order[i] = i;
  dp_merge_sort(w->order, w->merge, kept, w->keep_scores);
  output_size = kept < max_detections ? kept : max_detections;
  active = kept;
  for (i = 0; i < kept; ++i)
    w->active[i] = 1;
  for (i = 0; i < kept; ++i) {
    int32_t box;
    if (active == 0 || selected >= output_size)
      break;
    if (!w->active[i])
      continue;
    box = w->keep_indices[w->order[i]];
    w->selected[selected++] = box;
    w->active[i] = 0;
    --active;
    for (j = i + 1; j < kept; ++j)
      if (w->active[j] && dp_iou(w->boxes, box, w->keep_indices[w->order[j]]) >
                              p->nms_iou_threshold) {
        w->active[j] = 0;
        --active;
      }
  }
  return selected;
}

/* Result row `row`: box `box`, its class and score. */
static void dp_emit(const dp_work *w, int32_t row, int32_t box, int32_t cls,
                    float score, float *boxes, float *classes, float *scores) {
  const dp_box *b = &w->boxes[box];
  boxes[4 * row + 0] = b->ymin;
  boxes[4 * row + 1] = b->xmin;
  boxes[4 * row + 2] = b->ymax;
  boxes[4 * row + 3] = b->xmax;
  classes[row] = (float)cls;
  scores[row] = score;
}

/* Per class over every anchor, then the best max_detections of all (rows
 * past the results left out, where Micro would write past them). */
static float dp_regular(const ref_detection_postprocess_params *p,
                        const dp_work *w, const float *predictions,
                        float *boxes, float *classes, float *scores) {
  const int32_t stride = p->num_classes_with_background;
  const int32_t offset = stride - p->num_classes;
  int32_t merged = 0, col, row, i;
  for (col = 0; col < p->num_classes; ++col) {
    int32_t count, keep;
    for (row = 0; row < p->num_boxes; ++row)
      w->class_scores[row] = predictions[row * stride + col + offset];
    count = dp_suppress(p, w, w->class_scores, p->detections_per_class);
    for (i = 0; i < count; ++i) {
      w->cand_index[merged + i] = w->selected[i] * stride + col + offset;
      w->cand_score[merged + i] = w->class_scores[w->selected[i]];
    }
    count += merged;
    keep = count < p->max_detections ? count : p->max_detections;
    dp_partial_order(w->cand_score, count, keep, w->cand_order);
    for (i = 0; i < keep; ++i) {
      const int32_t from = w->cand_order[i];
      w->cand_order[i] = w->cand_index[from];
      w->cand_sorted[i] = w->cand_score[from];
    }
    for (i = 0; i < keep; ++i) {
      w->cand_index[i] = w->cand_order[i];
      w->cand_score[i] = w->cand_sorted[i];
    }
    merged = keep;
  }
  for (i = 0; i < merged && i < p->output_rows; ++i) {
    const int32_t anchor = w->cand_index[i] / stride;
    dp_emit(w, i, anchor, w->cand_index[i] - anchor * stride - offset,
            w->cand_score[i], boxes, classes, scores);
  }
  return (float)merged;
}

/* Per anchor on its best score, then its best classes. Micro advances the
 * result row once per class and places class `col` of it at row
 * `classes_per_anchor * row + col`; rows past the results are left out,
 * where Micro would write past them. */
static float dp_fast(const ref_detection_postprocess_params *p,
                     const dp_work *w, const float *predictions, float *boxes,
                     float *classes, float *scores) {
  const int32_t stride = p->num_classes_with_background;
  const int32_t offset = stride - p->num_classes;
  const int32_t per_anchor = p->max_classes_per_detection < p->num_classes
                                 ? p->max_classes_per_detection
                                 : p->num_classes;
  int32_t count, written = 0, row, i, col;
  for (row = 0; row < p->num_boxes; ++row) {
    const float *v = predictions + row * stride + offset;
    int32_t best;
    dp_partial_order(v, p->num_classes, 1, &best);
    w->class_scores[row] = v[best];
  }
  count = dp_suppress(p, w, w->class_scores, p->max_detections);
  for (i = 0; i < count; ++i) {
    const int32_t box = w->selected[i];
    const float *v = predictions + box * stride + offset;
    dp_partial_order(v, p->num_classes, per_anchor, w->cand_order);
    for (col = 0; col < per_anchor; ++col) {
      const int32_t at = per_anchor * written + col;
      if (at < p->output_rows)
        dp_emit(w, at, box, w->cand_order[col], v[w->cand_order[col]], boxes,
                classes, scores);
      ++written;
    }
  }
  return (float)written;
}

void ref_detection_postprocess_f32(
    const ref_detection_postprocess_params *p, const float *box_encodings,
    const float *class_predictions, const float *anchors, void *scratch,
    float *detection_boxes, float *detection_classes, float *detection_scores,
    float *num_detections) {
  const dp_work w = dp_carve(p, scratch);
  const size_t rows = (size_t)p->output_rows;
  memset(detection_boxes, 0, rows * 4 * sizeof(float));
  memset(detection_classes, 0, rows * sizeof(float));
  memset(detection_scores, 0, rows * sizeof(float));
  num_detections[0] = 0.0f;
  if (!dp_decode(p, box_encodings, anchors, w.boxes))
    return;
  num_detections[0] =
      p->use_regular_nms ? dp_regular(p, &w, class_predictions, detection_boxes,
                                      detection_classes, detection_scores)
                         : dp_fast(p, &w, class_predictions, detection_boxes,
                                   detection_classes, detection_scores);
}
