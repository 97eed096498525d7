//! [`F32W`] over `wide::f32x8`: the baseline flavour, compiled for the build's target.

use super::{F32W, LANES, MaskW};
use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};
use wide::f32x8;

/// Eight `f32` lanes as `wide::f32x8` (two SSE halves on a baseline x86-64 build).
#[derive(Debug, Clone, Copy)]
#[repr(transparent)]
pub struct PortableW(f32x8);

/// The mask of [`PortableW`]: all-ones or all-zeros bits per lane.
#[derive(Debug, Clone, Copy)]
#[repr(transparent)]
pub struct PortableMaskW(f32x8);

macro_rules! binop {
    ($ty:ident, $tr:ident, $f:ident) => {
        impl $tr for $ty {
            type Output = $ty;
            #[inline(always)]
            fn $f(self, b: $ty) -> $ty {
                $ty($tr::$f(self.0, b.0))
            }
        }
    };
}
binop!(PortableW, Add, add);
binop!(PortableW, Sub, sub);
binop!(PortableW, Mul, mul);
binop!(PortableW, Div, div);
binop!(PortableMaskW, BitAnd, bitand);
binop!(PortableMaskW, BitOr, bitor);

impl Neg for PortableW {
    type Output = PortableW;
    #[inline(always)]
    fn neg(self) -> PortableW {
        PortableW(-self.0)
    }
}

impl Not for PortableMaskW {
    type Output = PortableMaskW;
    #[inline(always)]
    fn not(self) -> PortableMaskW {
        PortableMaskW(!self.0)
    }
}

impl MaskW for PortableMaskW {
    #[inline(always)]
    fn bitmask(self) -> u32 {
        self.0.to_bitmask()
    }
    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        PortableMaskW(self.0 & !other.0)
    }
}

impl F32W for PortableW {
    type Mask = PortableMaskW;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        PortableW(f32x8::splat(x))
    }
    #[inline(always)]
    fn from_array(a: [f32; LANES]) -> Self {
        PortableW(f32x8::new(a))
    }
    #[inline(always)]
    fn to_array(self) -> [f32; LANES] {
        self.0.to_array()
    }
    #[inline(always)]
    fn load(s: &[f32]) -> Self {
        let a: [f32; LANES] = s[..LANES].try_into().expect("slice of 8");
        PortableW(f32x8::new(a))
    }
    #[inline(always)]
    fn store(self, s: &mut [f32]) {
        s[..LANES].copy_from_slice(self.0.as_array());
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        Self::select(self.lt(b), self, b)
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        Self::select(self.gt(b), self, b)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        PortableW(self.0.abs())
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        PortableW(self.0.sqrt())
    }
    #[inline(always)]
    fn floor(self) -> Self {
        PortableW(self.0.floor())
    }
    #[inline(always)]
    fn trunc_i32(self) -> [i32; LANES] {
        // Saturating `as` (NaN gives 0): the unspecified values differ from AVX2's.
        let a = self.0.to_array();
        let mut out = [0; LANES];
        for (o, x) in out.iter_mut().zip(a) {
            *o = x as i32;
        }
        out
    }
    #[inline(always)]
    fn lt(self, b: Self) -> PortableMaskW {
        PortableMaskW(self.0.simd_lt(b.0))
    }
    #[inline(always)]
    fn le(self, b: Self) -> PortableMaskW {
        PortableMaskW(self.0.simd_le(b.0))
    }
    #[inline(always)]
    fn gt(self, b: Self) -> PortableMaskW {
        PortableMaskW(self.0.simd_gt(b.0))
    }
    #[inline(always)]
    fn ge(self, b: Self) -> PortableMaskW {
        PortableMaskW(self.0.simd_ge(b.0))
    }
    #[inline(always)]
    fn eq(self, b: Self) -> PortableMaskW {
        PortableMaskW(self.0.simd_eq(b.0))
    }
    #[inline(always)]
    fn ne(self, b: Self) -> PortableMaskW {
        PortableMaskW(self.0.simd_ne(b.0))
    }
    #[inline(always)]
    fn select(m: PortableMaskW, t: Self, f: Self) -> Self {
        PortableW(m.0.select(t.0, f.0))
    }
}
