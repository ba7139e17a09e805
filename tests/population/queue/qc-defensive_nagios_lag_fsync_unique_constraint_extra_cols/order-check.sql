-- order-check.sql: per order_no, report every seq that is duplicated and every hole
-- between the smallest and the largest seq. Zero rows = ordering is intact.
WITH ordered AS (
    SELECT order_no,
           seq,
           LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
    FROM processed
)
SELECT order_no,
       seq,
       next_seq,
       CASE WHEN next_seq = seq THEN 'DUPLICATE_SEQ' ELSE 'MISSING_SEQ' END AS problem,
       CASE WHEN next_seq = seq THEN NULL ELSE (seq + 1) || '..' || (next_seq - 1) END AS missing_range
FROM ordered
WHERE next_seq IS NOT NULL
  AND next_seq - seq <> 1
ORDER BY order_no, seq;
