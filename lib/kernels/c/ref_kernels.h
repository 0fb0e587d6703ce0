/*===- ref_kernels.h - All reference kernels ------------------------------===*
 *
 * The portable C99 kernels of the `ref` target, bit-exact with TensorFlow
 * Lite's reference integer kernels. Every function is named
 * ref_<op>_<dtype>[_<variant>] and takes (params, shapes, data); params are
 * plain structs a code generator prints as constants. No kernel allocates.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_KERNELS_H
#define ACCELGEN_REF_KERNELS_H

#include "ref_activations.h"
#include "ref_add_n.h"
#include "ref_arg_min_max.h"
#include "ref_batch_matmul.h"
#include "ref_batch_space.h"
#include "ref_common.h"
#include "ref_compare.h"
#include "ref_concat.h"
#include "ref_conv.h"
#include "ref_cumsum.h"
#include "ref_depthwise_conv.h"
#include "ref_detection_postprocess.h"
#include "ref_elementwise.h"
#include "ref_elu.h"
#include "ref_fixedpoint.h"
#include "ref_fully_connected.h"
#include "ref_fill.h"
#include "ref_gather.h"
#include "ref_index.h"
#include "ref_l2norm.h"
#include "ref_log_softmax.h"
#include "ref_lstm.h"
#include "ref_mirror_pad.h"
#include "ref_pad.h"
#include "ref_pooling.h"
#include "ref_quantize.h"
#include "ref_reduce.h"
#include "ref_reshape.h"
#include "ref_resize.h"
#include "ref_select.h"
#include "ref_softmax.h"
#include "ref_space_depth.h"
#include "ref_strided_slice.h"
#include "ref_svdf.h"
#include "ref_transpose.h"
#include "ref_transpose_conv.h"
#include "ref_unary_math.h"

#endif /* ACCELGEN_REF_KERNELS_H */
