//! Tables on huge pages. The TT and the continuation history are read at random places far
//! apart, several times a node; on 4 KiB pages such a read can miss the TLB as well as the
//! caches (huge pages helped only together with the TT prefetch; docs/engine.md, "Search").
//! A [`HugeSlice`] over-allocates its vector by up to one huge page, uses the part that starts
//! on a 2 MiB boundary, and on Linux asks the kernel (`madvise(MADV_HUGEPAGE)`, as Stockfish
//! does) to back it with transparent huge pages before the first write. It is advice: where
//! the kernel has no huge pages, the table works as before.

use std::ops::{Deref, DerefMut};

/// The size of a huge page (x86-64 Linux's transparent huge pages).
pub(crate) const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// `len` values in a vector whose used part starts on a huge-page boundary where it can.
pub(crate) struct HugeSlice<T> {
    vec: Vec<T>,
    start: usize,
    len: usize,
}

impl<T> HugeSlice<T> {
    /// `len` values made by `fill`, or `None` when the memory cannot be had. A slice shorter
    /// than a huge page is a plain vector.
    pub(crate) fn try_new(len: usize, fill: impl FnMut() -> T) -> Option<HugeSlice<T>> {
        let size = std::mem::size_of::<T>().max(1);
        let pad = if len.checked_mul(size)? >= HUGE_PAGE {
            HUGE_PAGE / size
        } else {
            0
        };
        let mut vec: Vec<T> = Vec::new();
        vec.try_reserve_exact(len.checked_add(pad)?).ok()?;
        let addr = vec.as_ptr() as usize;
        let gap = addr.next_multiple_of(HUGE_PAGE) - addr;
        let aligned = pad > 0 && gap.is_multiple_of(size);
        let start = if aligned { gap / size } else { 0 };
        if aligned {
            // Before the first write, so that the pages are faulted in huge from the start.
            advise_huge_pages(vec.as_ptr().wrapping_add(start).cast(), len * size);
        }
        vec.resize_with(start + len, fill);
        Some(HugeSlice { vec, start, len })
    }

    /// [`HugeSlice::try_new`], aborting like any allocation when the memory cannot be had.
    pub(crate) fn new(len: usize, fill: impl FnMut() -> T) -> HugeSlice<T> {
        HugeSlice::try_new(len, fill).unwrap_or_else(|| {
            std::alloc::handle_alloc_error(
                std::alloc::Layout::array::<T>(len).unwrap_or(std::alloc::Layout::new::<T>()),
            )
        })
    }
}

impl<T> From<Vec<T>> for HugeSlice<T> {
    fn from(vec: Vec<T>) -> HugeSlice<T> {
        let len = vec.len();
        HugeSlice { vec, start: 0, len }
    }
}

impl<T> Deref for HugeSlice<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.vec[self.start..self.start + self.len]
    }
}

impl<T> DerefMut for HugeSlice<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.vec[self.start..self.start + self.len]
    }
}

/// Asks Linux to back `bytes` from `ptr` (a 2 MiB boundary inside a live allocation) with
/// transparent huge pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *const u8, bytes: usize) {
    // SAFETY: `madvise(MADV_HUGEPAGE)` changes how the kernel backs the range, never its
    // contents or its validity, and the range lies inside the caller's allocation. Its result
    // is ignored on purpose: without huge pages the table works as before.
    unsafe {
        libc::madvise(ptr as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *const u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_slice_starts_on_a_huge_page_and_holds_what_it_was_filled_with() {
        let n = 3 * HUGE_PAGE / 2 + 5;
        let mut slice = HugeSlice::try_new(n, || 7u16).expect("a few megabytes");
        assert_eq!(slice.len(), n);
        assert_eq!(slice.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(slice.iter().all(|&v| v == 7));
        slice[n - 1] = 9;
        assert_eq!(slice[n - 1], 9);
    }

    #[test]
    fn a_small_slice_is_a_plain_vector() {
        let slice = HugeSlice::try_new(10, || 1u64).expect("80 bytes");
        assert_eq!(slice.start, 0);
        assert_eq!(&slice[..], &[1; 10]);
        let from: HugeSlice<u8> = vec![1, 2, 3].into();
        assert_eq!(&from[..], &[1, 2, 3]);
    }

    #[test]
    fn an_impossible_size_is_none() {
        assert!(HugeSlice::<u64>::try_new(usize::MAX / 4, || 0).is_none());
    }
}
