"""Caching: what is kept between builds outside the output folder, and the no-op replay."""
