//! Property checks shared by the fuzz targets and the test suite (feature `fuzzing`).
