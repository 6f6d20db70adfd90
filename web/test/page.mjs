// Opens the built web page in headless Chromium (WebGPU on SwiftShader) and checks what a user would see:
// a PSK with its PSA and a Valve QC opened through `?open=`, and a QC tree given as a folder through the page's
// folder picker. For each: the status line (mirrored into #status) names the playing clip and the model's
// counts, and the screenshot's viewport shows the character (enough pixels unlike the backdrop). Screenshots and
// timings go to OUT_DIR.
//
// Usage: node page.mjs DIST_DIR CORPUS_DIR OUT_DIR
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { PNG } from "pngjs";

const [dist, corpus, out] = process.argv.slice(2).map((p) => path.resolve(p));
if (!dist || !corpus || !out) {
  console.error("usage: node page.mjs DIST_DIR CORPUS_DIR OUT_DIR");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

// The site: the page under /app, the corpus under /corpus (links: nothing is copied).
const site = fs.mkdtempSync(path.join(os.tmpdir(), "bonescope-site-"));
fs.symlinkSync(dist, path.join(site, "app"));
fs.symlinkSync(corpus, path.join(site, "corpus"));
const server = spawn("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", site], {
  stdio: ["ignore", "pipe", "inherit"],
});
const port = await new Promise((resolve, reject) => {
  server.stdout.on("data", (d) => {
    const m = /port (\d+)/.exec(String(d));
    if (m) resolve(Number(m[1]));
  });
  server.on("exit", (code) => reject(new Error(`http.server exited with ${code}`)));
});
const base = `http://127.0.0.1:${port}/app/index.html`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    // WebGPU on SwiftShader's Vulkan, composited through ANGLE on the same Vulkan: with ANGLE on its own
    // SwiftShader GL instead, the page draws but its screenshots come out blank.
    "--no-sandbox", "--enable-unsafe-webgpu", "--enable-unsafe-swiftshader", "--use-angle=vulkan",
    "--use-vulkan=swiftshader", "--enable-features=Vulkan", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic",
  ],
});

const failures = [];
const report = { cases: {} };
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

/// Waits until the viewer has finished loading and its status names a clip; returns the status text.
async function loaded(page, differentFrom) {
  await page.waitForFunction(
    (before) => {
      const s = document.getElementById("status");
      return s && s.dataset.loading === "false" && /clip: /.test(s.textContent) &&
        (!before || !s.textContent.includes(before));
    },
    differentFrom,
    { timeout: 180_000, polling: 100 },
  );
  return page.evaluate(() => document.getElementById("status").textContent);
}

/// "12,345 triangles · 6,789 vertices · 42 bones" of a status text.
const counts = (status) => (/[\d,]+ triangles\s+·\s+[\d,]+ vertices\s+·\s+\d+ bones?/.exec(status) || [""])[0];

/// The share of the viewport's middle that is the character: unlike the backdrop of its row, and not grey.
function characterShare(png) {
  const { width, height, data } = PNG.sync.read(png);
  const x0 = Math.floor(width * 0.3), x1 = Math.floor(width * 0.7);
  const y0 = Math.floor(height * 0.12), y1 = Math.floor(height * 0.8);
  let differing = 0, total = 0;
  for (let y = y0; y < y1; y++) {
    const ref = (y * width + x0) * 4;
    for (let x = x0; x < x1; x++) {
      const i = (y * width + x) * 4;
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      const d = Math.abs(r - data[ref]) + Math.abs(g - data[ref + 1]) + Math.abs(b - data[ref + 2]);
      // The backdrop and its grid are light, unsaturated greys; a shaded or textured character is coloured or
      // dark. (The thin axis and bone lines are coloured but cover a fraction of a per cent.)
      const saturation = Math.max(r, g, b) - Math.min(r, g, b);
      const luminance = 0.3 * r + 0.59 * g + 0.11 * b;
      if (d > 60 && (saturation > 40 || luminance < 110)) differing++;
      total++;
    }
  }
  return differing / total;
}

async function shows(page, name, status) {
  await page.waitForTimeout(1500);
  const png = await page.screenshot({ path: path.join(out, `${name}.png`) });
  const share = characterShare(png);
  check(share > 0.02, `${name}: the character covers ${(share * 100).toFixed(1)} % of the viewport's middle`);
  check(/clip: \S+/.test(status), `${name}: the status line names the clip: "${status}"`);
  check(!/(^|\s)0 triangles/.test(status), `${name}: the model has triangles`);
  return share;
}

async function newPage() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("console", (m) => { if (m.type() === "error") console.log(`  [page] ${m.text()}`); });
  page.on("pageerror", (e) => console.log(`  [page error] ${e.message}`));
  return page;
}

try {
  // 0. The measure can fail: an animation without a mesh draws its skeleton only.
  {
    const page = await newPage();
    await page.goto(`${base}?open=/corpus/psa/pendulum.psa`);
    await loaded(page);
    await page.waitForTimeout(1500);
    const share = characterShare(await page.screenshot({ path: path.join(out, "web-no-mesh.png") }));
    check(share < 0.02, `no mesh: ${(share * 100).toFixed(1)} % of the viewport's middle counts as character`);
    await page.close();
  }
  // 1. A PSK with its PSA, through ?open=.
  {
    const page = await newPage();
    const t0 = Date.now();
    await page.goto(`${base}?open=/corpus/psk/kit_SK_MaleBase_01_Body.psk&open=/corpus/psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa`);
    const status = await loaded(page);
    const adapter = await page.evaluate(async () => {
      if (!navigator.gpu) return "no WebGPU";
      const a = await navigator.gpu.requestAdapter();
      return a ? (a.info ? `${a.info.vendor} ${a.info.architecture} ${a.info.description}`.trim() : "WebGPU") : "no adapter";
    });
    report.cases.psk_psa = { status, seconds_to_loaded: (Date.now() - t0) / 1000, adapter };
    check(status.includes("WebGPU") || /BrowserWebGpu/i.test(status), `psk+psa: drawn through WebGPU ("${adapter}")`);
    check(/Walk/i.test(status), "psk+psa: the PSA's walk is the playing clip");
    await shows(page, "web-psk-psa", status);
    await page.close();
  }
  // 2. A QC through ?open=: its includes, SMDs and textures come from the site by relative path.
  let qcCounts;
  {
    const page = await newPage();
    const t0 = Date.now();
    await page.goto(`${base}?open=/corpus/qc/halflife/models/headcrab/headcrab.qc`);
    const status = await loaded(page);
    qcCounts = counts(status);
    report.cases.qc_open = { status, seconds_to_loaded: (Date.now() - t0) / 1000 };
    check(qcCounts !== "", `qc: the status has the model's counts (${qcCounts})`);
    await shows(page, "web-qc-open", status);
    await page.close();
  }
  // 2b. A compiled GoldSrc model through ?open=: its texture file (manT.mdl) and sequence-group file (man01.mdl)
  //     come from the site beside it, through the page's file reader.
  {
    const page = await newPage();
    await page.goto(`${base}?open=/corpus/mdl/hl1/compiled_models/man.mdl`);
    const status = await loaded(page);
    report.cases.mdl_open = { status };
    check(/ 8 bones/.test(status), `mdl: man.mdl's 8 bones (${counts(status)})`);
    await shows(page, "web-mdl-open", status);
    await page.close();
  }
  // 3. The same QC tree given as a folder (the page's folder picker, as a dropped folder is read).
  {
    const page = await newPage();
    await page.goto(base);
    const demo = counts(await loaded(page));
    const t0 = Date.now();
    await page.setInputFiles("#pickdir", path.join(corpus, "qc", "halflife"));
    const status = await loaded(page, demo);
    report.cases.qc_folder = { status, seconds_to_loaded: (Date.now() - t0) / 1000 };
    check(counts(status) === qcCounts, `qc folder: the same model as through ?open= (${counts(status)})`);
    await shows(page, "web-qc-folder", status);
    // 4. Loose files: a PSK and its 1.3 MB PSA picked together; timed from the pick to the model on screen.
    const t1 = Date.now();
    await page.setInputFiles("#pick", [
      path.join(corpus, "psk", "hp2_skgnomeMesh.psk"),
      path.join(corpus, "psa", "hp2_skgnomeAnims.psa"),
    ]);
    const gnome = await loaded(page, counts(status));
    const seconds = (Date.now() - t1) / 1000;
    report.cases.gnome_pick = { status: gnome, seconds_to_loaded: seconds };
    check(/ 38 bones/.test(gnome), `picked psk+psa: the gnome's 38 bones (${counts(gnome)}), in ${seconds.toFixed(2)} s`);
    await page.close();
  }
  // 4b. A Gothic MDS through ?open= (its ASC_* folders found through the server's folder listings) and the same
  //     tree given as a folder.
  {
    const page = await newPage();
    await page.goto(`${base}?open=/corpus/mds/gothic/Anims/BLOODFLY.MDS`);
    const status = await loaded(page);
    const mdsCounts = counts(status);
    report.cases.mds_open = { status };
    check(/ \d+ bones/.test(mdsCounts) && !/(^|\s)0 triangles/.test(status), `mds: the Bloodfly's body and skeleton (${mdsCounts})`);
    await page.goto(base);
    const demo = counts(await loaded(page));
    await page.setInputFiles("#pickdir", path.join(corpus, "mds", "gothic"));
    const dropped = await loaded(page, demo);
    report.cases.mds_folder = { status: dropped };
    check(counts(dropped) === mdsCounts, `mds folder: the same model as through ?open= (${counts(dropped)})`);
    await shows(page, "web-mds-folder", dropped);
    await page.close();
  }
  // 5. A browser without WebGPU (Chromium's default on this machine: ANGLE on SwiftShader GL): WebGL2, where
  //    the renderer reads the palettes from data textures (no storage buffers in the vertex stage there).
  {
    const gl = await chromium.launch({
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    });
    const page = await gl.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("console", (m) => { if (m.type() === "error") console.log(`  [webgl2 page] ${m.text()}`); });
    page.on("pageerror", (e) => console.log(`  [webgl2 page error] ${e.message}`));
    await page.goto(`${base}?open=/corpus/qc/halflife/models/headcrab/headcrab.qc`);
    const status = await loaded(page);
    report.cases.qc_webgl2 = { status };
    check(/Gl \(wgpu renderer, palette in textures\)/.test(status),
      `webgl2: drawn by the renderer with the palette in textures ("${status.slice(-70)}")`);
    check(counts(status) === qcCounts, `webgl2: the same model (${counts(status)})`);
    await shows(page, "web-qc-webgl2", status);
    await page.goto(`${base}?open=/corpus/psk/kit_SK_MaleBase_01_Body.psk&open=/corpus/psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa`);
    const walk = await loaded(page);
    report.cases.psk_psa_webgl2 = { status: walk };
    check(/Gl \(wgpu renderer, palette in textures\)/.test(walk) && /Walk/i.test(walk), `webgl2: the kit body walks ("${walk.slice(-70)}")`);
    await shows(page, "web-psk-psa-webgl2", walk);
    // The stretch view (Z steps through the shading modes: Textured → … → Stretch, the sixth): WebGL2 has no
    // compute shaders, so the renderer measures the stretch on the CPU; the body turns blue and red.
    const blueish = (png) => {
      const { width, height, data } = PNG.sync.read(png);
      let n = 0;
      for (let y = Math.floor(height * 0.12); y < Math.floor(height * 0.8); y++) {
        for (let x = Math.floor(width * 0.3); x < Math.floor(width * 0.7); x++) {
          const i = (y * width + x) * 4;
          // Bright blue only: the skeleton's joints and bones are a dark blue.
          if (data[i + 2] > 150 && data[i + 2] > data[i] + 60 && data[i + 2] > data[i + 1] + 30) n++;
        }
      }
      return n;
    };
    const before = blueish(await page.screenshot());
    await page.mouse.click(640, 120);
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("z");
      await page.waitForTimeout(400);
    }
    await page.waitForTimeout(1500);
    const stretchPng = await page.screenshot({ path: path.join(out, "web-psk-psa-webgl2-stretch.png") });
    const stretchStatus = await page.evaluate(() => document.getElementById("status").textContent);
    const after = blueish(stretchPng);
    report.cases.stretch_webgl2 = { status: stretchStatus, blue_pixels_before: before, blue_pixels_after: after };
    check(/wgpu renderer, palette in textures/.test(stretchStatus) && after > before + 500,
      `webgl2 stretch view: drawn by the renderer (${before} → ${after} compressed-blue pixels)`);
    await gl.close();
  }
} catch (error) {
  failures.push(String(error));
  console.log(`FAIL ${error}`);
} finally {
  await browser.close();
  server.kill();
  fs.rmSync(site, { recursive: true, force: true });
}
fs.writeFileSync(path.join(out, "web-test.json"), JSON.stringify(report, null, 2));
if (failures.length > 0) {
  console.log(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("web page: all checks passed");
