-- Step 6: within one order_no, a seq that repeats or a hole between the smallest and
-- largest seq. One row per problem; no rows when every order is clean.
WITH ordered AS (
    SELECT order_no, seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
    FROM processed
)
SELECT order_no, prev_seq, seq,
       CASE WHEN seq = prev_seq THEN 'duplicate' ELSE 'missing' END AS problem
FROM ordered
WHERE prev_seq IS NOT NULL AND seq <> prev_seq + 1;
