// node onnxruntime_runner.js MODEL.onnx IN_DIR OUT_DIR
//
// Runs MODEL with ONNX Runtime (onnxruntime-node, CPU, one thread, every
// graph optimization, as deployments run it) on IN_DIR/input_<i>.bin and
// writes OUT_DIR/output_<i>.bin: raw little-endian elements, rank-4 values
// in NHWC order as accelgen's models take and give them (ONNX's are NCHW).
'use strict';
const ort = require('onnxruntime-node');
const fs = require('fs');

const Arrays = {
  int8 : Int8Array,
  uint8 : Uint8Array,
  int16 : Int16Array,
  int32 : Int32Array,
  float32 : Float32Array,
};

// `src` of dimensions `dims` with its axes permuted: result axis a is source
// axis perm[a].
function permute(src, dims, perm) {
  const out = new src.constructor(src.length);
  const to = perm.map((p) => dims[p]);
  const stride =
      dims.map((_, i) => dims.slice(i + 1).reduce((a, b) => a * b, 1));
  const index = new Array(dims.length).fill(0);
  for (let o = 0; o < src.length; ++o) {
    let rest = o, from = 0;
    for (let a = dims.length - 1; a >= 0; --a) {
      index[a] = rest % to[a];
      rest = Math.floor(rest / to[a]);
    }
    for (let a = 0; a < dims.length; ++a)
      from += index[a] * stride[perm[a]];
    out[o] = src[from];
  }
  return out;
}

async function main() {
  const [model, inDir, outDir] = process.argv.slice(2);
  if (!outDir)
    throw new Error('usage: onnxruntime_runner.js MODEL.onnx IN_DIR OUT_DIR');
  const session = await ort.InferenceSession.create(model, {
    graphOptimizationLevel : 'all',
    intraOpNumThreads : 1,
    interOpNumThreads : 1,
  });
  const feeds = {};
  session.inputMetadata.forEach((m, i) => {
    const A = Arrays[m.type];
    if (!A)
      throw new Error(`input ${m.name}: element type ${m.type} is not taken`);
    const bytes = fs.readFileSync(`${inDir}/input_${i}.bin`);
    let data = new A(
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    if (m.shape.length === 4) {
      const [n, c, h, w] = m.shape;
      data = permute(data, [ n, h, w, c ], [ 0, 3, 1, 2 ]);
    }
    feeds[m.name] = new ort.Tensor(m.type, data, m.shape);
  });
  const results = await session.run(feeds);
  session.outputNames.forEach((name, i) => {
    const t = results[name];
    const data =
        t.dims.length === 4 ? permute(t.data, t.dims, [ 0, 2, 3, 1 ]) : t.data;
    fs.writeFileSync(
        `${outDir}/output_${i}.bin`,
        Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  });
}

main().catch((e) => {
  console.error(`onnxruntime_runner: ${e.message || e}`);
  process.exit(1);
});
