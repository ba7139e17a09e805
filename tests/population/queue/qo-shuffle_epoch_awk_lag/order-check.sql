-- seq check per order_no: the step from the previous seq must be exactly 1
--   step 0  -> the same seq twice
--   step >1 -> (step-1) seqs missing in between
WITH stepped AS (
    SELECT order_no,
           seq,
           LAG(seq) OVER per_order AS prev_seq
    FROM processed
    WINDOW per_order AS (PARTITION BY order_no ORDER BY seq)
)
SELECT order_no,
       prev_seq,
       seq,
       CASE WHEN seq = prev_seq THEN 'duplicate'
            ELSE (seq - prev_seq - 1) || ' missing' END AS problem
FROM stepped
WHERE prev_seq IS NOT NULL
  AND seq - prev_seq <> 1;
