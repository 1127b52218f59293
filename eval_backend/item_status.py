"""What became of one item of a run: the four outcomes every benchmark's coverage counts.

- `SCORED`: every scorer has its verdict;
- `NO_RESPONSE`: the model could not answer (its prompt does not fit the context, an empty
  answer): scored by the benchmark's no-answer policy, never left out;
- `FAILED`: a judgment failed for good: counted, left out of the figures it would decide;
- `PENDING`: the system owes it something (a response, a current response, a judgment).
"""

SCORED, FAILED, PENDING, NO_RESPONSE = "scored", "failed", "pending", "no_response"
