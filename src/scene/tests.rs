use super::*;

fn sample() -> Vec<Aabb> {
    vec![
        Aabb::from_coords(0.0, 0.0, 1.0, 1.0),
        Aabb::from_coords(-2.5, 3.0, -2.5, 3.0), // zero size: allowed
        Aabb::from_coords(1.0e30, -1.0e30, 2.0e30, 1.0e30),
    ]
}

#[test]
fn round_trip_borrowed_and_copied() {
    let boxes = sample();
    let bytes = encode(&boxes).unwrap();
    assert_eq!(bytes.len(), HEADER_LEN + RECORD_LEN * boxes.len());
    assert_eq!(&bytes[..8], b"AABB2D\0\0");
    assert_eq!(decode(&bytes).unwrap().as_ref(), &boxes[..]);
    // Misaligned copy of the same bytes decodes the same (through the copying path).
    let mut shifted = vec![0u8; bytes.len() + 1];
    shifted[1..].copy_from_slice(&bytes);
    let d = decode(&shifted[1..]).unwrap();
    assert_eq!(d.as_ref(), &boxes[..]);
    // Empty scene.
    let empty = encode(&[]).unwrap();
    assert_eq!(empty.len(), 16);
    assert!(decode(&empty).unwrap().is_empty());
}

#[test]
fn every_malformed_case_is_named() {
    let good = encode(&sample()).unwrap();
    assert_eq!(
        decode(&good[..10]),
        Err(SceneError::TruncatedHeader { len: 10 })
    );
    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(matches!(decode(&bad), Err(SceneError::BadMagic { .. })));
    let mut bad = good.clone();
    bad[8..12].copy_from_slice(&2u32.to_le_bytes());
    assert_eq!(
        decode(&bad),
        Err(SceneError::UnsupportedVersion { version: 2 })
    );
    assert_eq!(
        decode(&good[..good.len() - 1]),
        Err(SceneError::SizeMismatch {
            count: 3,
            expected: 64,
            found: 63
        })
    );
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        decode(&long),
        Err(SceneError::SizeMismatch { .. })
    ));
    let mut bad = good.clone();
    bad[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        decode(&bad),
        Err(SceneError::SizeMismatch {
            count: u32::MAX,
            ..
        })
    ));
    // Record 1's min_y := NaN; record 2's max_x < min_x.
    let mut bad = good.clone();
    bad[16 + 16 + 4..16 + 16 + 8].copy_from_slice(&f32::NAN.to_le_bytes());
    assert_eq!(decode(&bad), Err(SceneError::NonFinite { record: 1 }));
    let mut bad = good.clone();
    bad[16 + 32 + 8..16 + 32 + 12].copy_from_slice(&0.0f32.to_le_bytes());
    assert_eq!(
        decode(&bad),
        Err(SceneError::Inverted { record: 2, axis: 0 })
    );
    let mut bad = good;
    bad[16 + 12..16 + 16].copy_from_slice(&f32::NEG_INFINITY.to_le_bytes());
    assert_eq!(decode(&bad), Err(SceneError::NonFinite { record: 0 }));
}

#[test]
fn writer_refuses_invalid_boxes() {
    let mut boxes = sample();
    boxes.push(Aabb::from_coords(0.0, 1.0, 0.0, 0.0));
    assert_eq!(
        encode(&boxes),
        Err(SceneError::Inverted { record: 3, axis: 1 })
    );
    boxes[3] = Aabb::from_coords(0.0, 0.0, f32::INFINITY, 0.0);
    assert_eq!(encode(&boxes), Err(SceneError::NonFinite { record: 3 }));
}

#[test]
fn files_round_trip_and_io_errors_are_typed() {
    let dir = std::env::temp_dir().join(format!("hantei-scene-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.aabb");
    save(&path, &sample()).unwrap();
    assert_eq!(load(&path).unwrap(), sample());
    let missing = load(dir.join("missing.aabb"));
    assert!(matches!(
        missing,
        Err(SceneError::Io {
            kind: std::io::ErrorKind::NotFound,
            ..
        })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_display_their_subject() {
    let e = SceneError::Inverted { record: 7, axis: 1 };
    assert_eq!(e.to_string(), "record 7: min_y > max_y");
    let e: crate::error::Error = SceneError::NonFinite { record: 3 }.into();
    assert!(e.to_string().contains("record 3"));
}
