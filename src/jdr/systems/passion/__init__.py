"""`passion`: the superhero homebrew of even and odd dice (seed 004, rules PS-1 … PS-19)."""
