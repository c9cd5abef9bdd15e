//! encoding_rs's one-shot conversions into a caller's buffer, for
//! pgcodec_bench (bench/encoding_rs.cpp declares these functions). Strict
//! both ways: a malformed input, an unmappable character or a full buffer
//! returns -1, nothing is replaced. Nothing here allocates.
//!
//! Each call makes its `Decoder` / `Encoder` on the stack: encoding_rs
//! returns them by value (no heap), has no reset, and documents that one must
//! not be used after its `last == true` call, so one per conversion is the
//! pattern (its allocating one-shot `Encoding::decode_*` / `encode` make one
//! the same way and convert into a `String` / `Vec` instead of `dst`).

use encoding_rs::{DecoderResult, EncoderResult, Encoding};

/// `len` bytes at `p` (null allowed when `len` is 0).
unsafe fn bytes<'a>(p: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        core::slice::from_raw_parts(p, len)
    }
}

unsafe fn bytes_mut<'a>(p: *mut u8, len: usize) -> &'a mut [u8] {
    if len == 0 {
        &mut []
    } else {
        core::slice::from_raw_parts_mut(p, len)
    }
}

/// The encoding a WHATWG label names (ASCII case-insensitive, surrounding
/// whitespace ignored), or null. With `encode` != 0, also null when the
/// encoding's encoder writes another encoding (UTF-16BE/LE and "replacement"
/// encode to UTF-8).
#[no_mangle]
pub unsafe extern "C" fn pgbench_ers_for_label(label: *const u8, len: usize, encode: i32) -> *const Encoding {
    match Encoding::for_label(bytes(label, len)) {
        Some(e) if encode == 0 || e.output_encoding() == e => e,
        _ => core::ptr::null(),
    }
}

/// `src` in `enc` -> UTF-8 in `dst`, without BOM handling (a BOM is a
/// character like any other, as in pgcodec). Bytes written, or -1.
#[no_mangle]
pub unsafe extern "C" fn pgbench_ers_decode(enc: *const Encoding, src: *const u8, src_len: usize,
                                            dst: *mut u8, dst_len: usize) -> isize {
    let mut d = (*enc).new_decoder_without_bom_handling();
    match d.decode_to_utf8_without_replacement(bytes(src, src_len), bytes_mut(dst, dst_len), true) {
        (DecoderResult::InputEmpty, _, written) => written as isize,
        _ => -1,
    }
}

/// UTF-8 `src` -> `enc` in `dst`. Bytes written, or -1 (also for invalid
/// UTF-8: encoding_rs takes a `&str`, so the input is validated first with
/// its own validator, `Encoding::utf8_valid_up_to`, as a caller holding
/// bytes must; pgcodec's and iconv's encoders validate too).
#[no_mangle]
pub unsafe extern "C" fn pgbench_ers_encode(enc: *const Encoding, src: *const u8, src_len: usize,
                                            dst: *mut u8, dst_len: usize) -> isize {
    let src = bytes(src, src_len);
    if Encoding::utf8_valid_up_to(src) != src.len() {
        return -1;
    }
    let mut e = (*enc).new_encoder();
    let text = core::str::from_utf8_unchecked(src);
    match e.encode_from_utf8_without_replacement(text, bytes_mut(dst, dst_len), true) {
        (EncoderResult::InputEmpty, _, written) => written as isize,
        _ => -1,
    }
}
