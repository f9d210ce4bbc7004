"""Study iwtm: infinite-word topic models on scene images (Waters, PhD 2014, chs. 3-5)."""
