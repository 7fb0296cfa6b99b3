#!/usr/bin/env bash
# dropin_long.sh -- the long drop-in run (docs/testing.md): real C code bases, fetched at run
# time through a registry's ordinary client (cargo, from crates.io; nothing of them is ever
# copied into this repository), built with CC=gcc and with CC=wucc, their tests run, the
# results compared.
#
#   scripts/dropin_long.sh [--wucc PATH] [--work DIR] [--only NAME]... [--timeout SECONDS]
#
# Projects (each built and tested once per compiler, in WORK/<project>-<side>):
#   cargo   a throw-away cargo project depending on the -sys crates that bundle C libraries and
#           build them with $CC through the cc crate: lua-src (Lua 5.4), libz-sys (zlib, static),
#           bzip2-sys, zstd-sys, lzma-sys (liblzma, static), libsqlite3-sys (SQLite, bundled);
#           its program runs a Lua script, round-trips data through the four compressors and
#           runs SQL, and prints what it got: the two outputs must be the same.
#   lua     lua-src's own test (cargo test): builds Lua 5.1, 5.2, 5.3, 5.4 and 5.5 with $CC.
#   bzip2   the bzip2 1.0.8 source tree bzip2-sys bundles: make CC=..., then its make test
#           (compresses and decompresses the reference samples, compares byte for byte).
#   xz      the xz 5.2 tree lzma-sys bundles, configured by CMake with CMAKE_C_COMPILER set to
#           the compiler (CMake's compiler detection and try_compile checks), built.
#
# Prints one line per project and side, then a summary; exits 1 if wucc failed where gcc
# passed, or the outputs differ; 2 if gcc itself failed (the environment is broken).
# Needs network access to crates.io the first time (cargo fetch), cargo, cmake, make.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
wucc="$here/build/bin/wucc"
work="${TMPDIR:-/tmp}/wuc-dropin-long"
timeout_s=1800
only=()

while [ $# -gt 0 ]; do
  case "$1" in
    --wucc) wucc=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "dropin_long.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

case "$wucc" in /*) ;; *) wucc="$PWD/$wucc" ;; esac
for tool in cargo cmake make gcc "$wucc"; do
  command -v "$tool" >/dev/null || { echo "dropin_long.sh: $tool not found" >&2; exit 2; }
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
log="$work/logs"
mkdir -p "$log"

# cargo, make and CMake put CC=wucc in wucc's environment: a wucc that starts $CC without
# checking that it is itself would start itself without end (issue 14).  Refuse to go on.
printf 'int main(void) { return 0; }\n' > "$work/probe.c"
if ! CC="$wucc" timeout --kill-after=5 20 "$wucc" -c "$work/probe.c" -o "$work/probe.o" \
     > "$log/probe.log" 2>&1; then
  echo "dropin_long.sh: CC=$wucc $wucc -c probe.c failed or did not finish in 20 s" \
       "(CC recursion?): $log/probe.log" >&2
  exit 1
fi

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local o
  for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done
  return 1
}

# ---- the cargo project (written here, at run time) ----------------------------------------
cargo_project() {
  local dir=$1
  mkdir -p "$dir/src"
  cat > "$dir/Cargo.toml" <<'EOF'
[package]
name = "wuc-dropin-long"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
libz-sys = { version = "1", default-features = false, features = ["static"] }
bzip2-sys = "0.1"
zstd-sys = "2"
lzma-sys = { version = "0.1", features = ["static"] }
libsqlite3-sys = { version = "0", features = ["bundled"] }

[build-dependencies]
lua-src = "551"

[workspace]
EOF
  cat > "$dir/build.rs" <<'EOF'
fn main() {
    let artifacts = lua_src::Build::new().build(lua_src::Lua54);
    artifacts.print_cargo_metadata();
}
EOF
  cat > "$dir/src/main.rs" <<'EOF'
// Drives each bundled C library through its C API and prints what it computed.
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_uint, c_ulong, c_void};

use bzip2_sys as _;
use libsqlite3_sys as _;
use libz_sys as _;
use lzma_sys as _;
use zstd_sys as _;

extern "C" {
    // Lua 5.4
    fn luaL_newstate() -> *mut c_void;
    fn luaL_openlibs(l: *mut c_void);
    fn luaL_loadstring(l: *mut c_void, s: *const c_char) -> c_int;
    fn lua_pcallk(l: *mut c_void, nargs: c_int, nres: c_int, errf: c_int, ctx: isize, k: *const c_void) -> c_int;
    fn lua_tolstring(l: *mut c_void, idx: c_int, len: *mut usize) -> *const c_char;
    fn lua_close(l: *mut c_void);
    // zlib
    fn compress2(dst: *mut u8, dlen: *mut c_ulong, src: *const u8, slen: c_ulong, level: c_int) -> c_int;
    fn uncompress(dst: *mut u8, dlen: *mut c_ulong, src: *const u8, slen: c_ulong) -> c_int;
    fn crc32(crc: c_ulong, buf: *const u8, len: c_uint) -> c_ulong;
    // bzip2
    fn BZ2_bzBuffToBuffCompress(dst: *mut c_char, dlen: *mut c_uint, src: *mut c_char, slen: c_uint, block: c_int, verb: c_int, work: c_int) -> c_int;
    fn BZ2_bzBuffToBuffDecompress(dst: *mut c_char, dlen: *mut c_uint, src: *mut c_char, slen: c_uint, small: c_int, verb: c_int) -> c_int;
    // zstd
    fn ZSTD_compress(dst: *mut c_void, cap: usize, src: *const c_void, len: usize, level: c_int) -> usize;
    fn ZSTD_decompress(dst: *mut c_void, cap: usize, src: *const c_void, len: usize) -> usize;
    fn ZSTD_isError(code: usize) -> c_uint;
    // liblzma
    fn lzma_easy_buffer_encode(preset: u32, check: c_int, a: *const c_void, src: *const u8, len: usize, out: *mut u8, pos: *mut usize, cap: usize) -> c_int;
    fn lzma_stream_buffer_decode(memlimit: *mut u64, flags: u32, a: *const c_void, src: *const u8, in_pos: *mut usize, len: usize, out: *mut u8, out_pos: *mut usize, cap: usize) -> c_int;
    // SQLite
    fn sqlite3_open(name: *const c_char, db: *mut *mut c_void) -> c_int;
    fn sqlite3_exec(db: *mut c_void, sql: *const c_char, cb: Option<extern "C" fn(*mut c_void, c_int, *mut *mut c_char, *mut *mut c_char) -> c_int>, arg: *mut c_void, err: *mut *mut c_char) -> c_int;
    fn sqlite3_close(db: *mut c_void) -> c_int;
    fn sqlite3_libversion() -> *const c_char;
}

const LUA: &str = r#"
local t = {}
for i = 1, 2000 do t[#t + 1] = string.format("%05d", (i * 7919) % 10007) end
table.sort(t)
local co = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i * i) end end)
local s = 0
for w in ("the quick brown fox jumps over the lazy dog"):gmatch("%a+") do s = s + #w end
local f = 0.0
for i = 1, 100000 do f = f + math.sin(i) / i end
return string.format("lua: %s %s %s %d %d %d %.12f %s %d", _VERSION, t[1], t[#t],
  co(), co(), s, f, utf8.char(0x20AC, 0x1F600), math.maxinteger // 3)
"#;

fn lua() -> String {
    unsafe {
        let l = luaL_newstate();
        luaL_openlibs(l);
        let src = CString::new(LUA).unwrap();
        let rc = luaL_loadstring(l, src.as_ptr());
        let rc = if rc == 0 { lua_pcallk(l, 0, 1, 0, 0, std::ptr::null()) } else { rc };
        let mut n = 0usize;
        let p = lua_tolstring(l, -1, &mut n);
        let out = format!("{} (rc {})", CStr::from_ptr(p).to_string_lossy(), rc);
        lua_close(l);
        out
    }
}

fn sample() -> Vec<u8> {
    let mut v = Vec::new();
    let mut x: u32 = 12345;
    for i in 0..200_000u32 {
        x = x.wrapping_mul(1103515245).wrapping_add(12345);
        v.push(if i % 3 == 0 { b'a' + (x >> 16) as u8 % 4 } else { (x >> 24) as u8 & 0x1f | 0x40 });
    }
    v
}

fn main() {
    let data = sample();
    println!("{}", lua());
    unsafe {
        let mut out = vec![0u8; data.len() * 2 + 1024];
        let mut back = vec![0u8; data.len()];
        // zlib
        let mut n = out.len() as c_ulong;
        let rc = compress2(out.as_mut_ptr(), &mut n, data.as_ptr(), data.len() as c_ulong, 9);
        let mut m = back.len() as c_ulong;
        let rc2 = uncompress(back.as_mut_ptr(), &mut m, out.as_ptr(), n);
        println!("zlib: rc {} {}, {} -> {} bytes, round trip {}, crc32 {:08x}", rc, rc2, data.len(), n,
                 back[..m as usize] == data[..], crc32(0, data.as_ptr(), data.len() as c_uint));
        // bzip2
        let mut src = data.clone();
        let mut n = out.len() as c_uint;
        let rc = BZ2_bzBuffToBuffCompress(out.as_mut_ptr() as *mut c_char, &mut n, src.as_mut_ptr() as *mut c_char, src.len() as c_uint, 9, 0, 30);
        let mut m = back.len() as c_uint;
        let rc2 = BZ2_bzBuffToBuffDecompress(back.as_mut_ptr() as *mut c_char, &mut m, out.as_mut_ptr() as *mut c_char, n, 0, 0);
        println!("bzip2: rc {} {}, {} -> {} bytes, round trip {}", rc, rc2, data.len(), n, back[..m as usize] == data[..]);
        // zstd
        let n = ZSTD_compress(out.as_mut_ptr() as *mut c_void, out.len(), data.as_ptr() as *const c_void, data.len(), 19);
        let m = ZSTD_decompress(back.as_mut_ptr() as *mut c_void, back.len(), out.as_ptr() as *const c_void, n);
        println!("zstd: errors {} {}, {} -> {} bytes, round trip {}", ZSTD_isError(n), ZSTD_isError(m), data.len(), n, back[..m] == data[..]);
        // liblzma (.xz, CRC64)
        let mut pos = 0usize;
        let rc = lzma_easy_buffer_encode(6, 4, std::ptr::null(), data.as_ptr(), data.len(), out.as_mut_ptr(), &mut pos, out.len());
        let (mut limit, mut ip, mut op) = (u64::MAX, 0usize, 0usize);
        let rc2 = lzma_stream_buffer_decode(&mut limit, 0, std::ptr::null(), out.as_ptr(), &mut ip, pos, back.as_mut_ptr(), &mut op, back.len());
        println!("lzma: rc {} {}, {} -> {} bytes, round trip {}", rc, rc2, data.len(), pos, back[..op] == data[..]);
        // SQLite
        let mut db = std::ptr::null_mut();
        sqlite3_open(b":memory:\0".as_ptr() as *const c_char, &mut db);
        let sql = CString::new(
            "CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT);
             WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000)
             INSERT INTO t SELECT x, printf('%08x', (x * 2654435761) % 4294967296) FROM c;
             CREATE INDEX tv ON t(v);
             SELECT count(*), min(v), max(v), sum(k % 7), group_concat(k, ',') FILTER (WHERE v LIKE 'ff%')
               FROM t;").unwrap();
        extern "C" fn row(_: *mut c_void, n: c_int, vals: *mut *mut c_char, _: *mut *mut c_char) -> c_int {
            let mut cols = Vec::new();
            for i in 0..n as usize {
                let p = unsafe { *vals.add(i) };
                cols.push(if p.is_null() { "NULL".into() } else { unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() });
            }
            println!("sqlite: row {}", cols.join(" | "));
            0
        }
        let rc = sqlite3_exec(db, sql.as_ptr(), Some(row), std::ptr::null_mut(), std::ptr::null_mut());
        println!("sqlite: {} rc {}", CStr::from_ptr(sqlite3_libversion()).to_string_lossy(), rc);
        sqlite3_close(db);
    }
}
EOF
}

# ---- one project, one side ------------------------------------------------------------------
# run_step LOGFILE CMD...: runs under the timeout, appends everything to LOGFILE.
run_step() {
  local logf=$1; shift
  echo "+ $*" >> "$logf"
  timeout --kill-after=30 "$timeout_s" "$@" >> "$logf" 2>&1
}

registry_dir() {  # the unpacked source of a crate cargo fetched for the cargo project
  cargo metadata --format-version 1 --manifest-path "$work/cargo-gcc/Cargo.toml" 2>/dev/null |
    python3 -c 'import json,sys,os
d=json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in d["packages"] if p["name"]==sys.argv[1]))' "$1"
}

build_cargo() {  # side cc
  local side=$1 cc=$2 dir="$work/cargo-$side" logf="$log/cargo-$side.log"
  rm -rf "$dir"; cargo_project "$dir"; : > "$logf"
  (cd "$dir" && run_step "$logf" env CC="$cc" CARGO_TARGET_DIR="$dir/target" cargo build) || return 1
  echo "+ target/debug/wuc-dropin-long > $work/out-cargo-$side.txt" >> "$logf"
  # The cc crate records the compiler it used in each build script's output.
  echo "build scripts that compiled C with CC=$cc: $(grep -lF "CC = Some($cc)" \
    "$dir"/target/debug/build/*/output | wc -l)" >> "$logf"
  timeout "$timeout_s" "$dir/target/debug/wuc-dropin-long" > "$work/out-cargo-$side.txt" 2>> "$logf"
}

build_lua() {
  local side=$1 cc=$2 src dir="$work/lua-$side" logf="$log/lua-$side.log"
  src=$(registry_dir lua-src) || return 1
  rm -rf "$dir"; cp -r "$src" "$dir"; : > "$logf"
  (cd "$dir" && run_step "$logf" env CC="$cc" CARGO_TARGET_DIR="$dir/target" cargo test)
}

build_bzip2() {
  local side=$1 cc=$2 src dir="$work/bzip2-$side" logf="$log/bzip2-$side.log"
  src=$(registry_dir bzip2-sys) || return 1
  rm -rf "$dir"; cp -r "$src/bzip2-1.0.8" "$dir"; : > "$logf"
  run_step "$logf" make -C "$dir" CC="$cc" bzip2 || return 1
  run_step "$logf" make -C "$dir" CC="$cc" test || return 1
  (cd "$dir" && ./bzip2 -9 < manual.ps | ./bzip2 -d | cmp - manual.ps) >> "$logf" 2>&1
}

build_xz() {
  local side=$1 cc=$2 src dir="$work/xz-$side" logf="$log/xz-$side.log"
  src=$(registry_dir lzma-sys) || return 1
  rm -rf "$dir"; : > "$logf"
  run_step "$logf" cmake -S "$src/xz-5.2" -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release || return 1
  run_step "$logf" cmake --build "$dir" -j 2 || return 1
  # The library must work: compress and decompress through xz's own command-line tool if built.
  if [ -x "$dir/xz" ]; then
    (cd "$dir" && ./xz -9 -c "$src/xz-5.2/COPYING" | ./xz -d -c | cmp - "$src/xz-5.2/COPYING") >> "$logf" 2>&1
  fi
}

# ---- main -----------------------------------------------------------------------------------
projects=(cargo lua bzip2 xz)
declare -A result
# The cargo project first: fetching it puts every crate's source in cargo's registry.
mkdir -p "$work/cargo-gcc"; cargo_project "$work/cargo-gcc"
if ! (cd "$work/cargo-gcc" && timeout 600 cargo fetch > "$log/fetch.log" 2>&1); then
  # Without the network, what an earlier run fetched may do.
  if (cd "$work/cargo-gcc" && timeout 600 cargo fetch --offline >> "$log/fetch.log" 2>&1); then
    export CARGO_NET_OFFLINE=true
  else
    echo "dropin_long.sh: cargo fetch failed (network?): $log/fetch.log" >&2
    exit 2
  fi
fi

status=0
for p in "${projects[@]}"; do
  wanted "$p" || continue
  for side in gcc wucc; do
    cc=gcc; [ "$side" = wucc ] && cc="$wucc"
    start=$(date +%s)
    if "build_$p" "$side" "$cc"; then r=ok; else r=FAILED; fi
    result[$p-$side]=$r
    printf '%-6s %-5s %-7s %4ss  log: %s\n' "$p" "$side" "$r" $(( $(date +%s) - start )) "$log/$p-$side.log"
  done
  if [ "${result[$p-gcc]}" != ok ]; then
    echo "$p: fails with gcc too: the environment, not wucc"; status=2
  elif [ "${result[$p-wucc]}" != ok ]; then
    status=$(( status == 2 ? 2 : 1 ))
  fi
done
if wanted cargo && [ "${result[cargo-gcc]:-}" = ok ] && [ "${result[cargo-wucc]:-}" = ok ]; then
  if cmp -s "$work/out-cargo-gcc.txt" "$work/out-cargo-wucc.txt"; then
    echo "cargo: the program's output is the same with both compilers"
  else
    echo "cargo: the program's output differs:"; diff "$work/out-cargo-gcc.txt" "$work/out-cargo-wucc.txt" | head -20
    status=$(( status == 2 ? 2 : 1 ))
  fi
fi
echo "work directory: $work"
exit $status
