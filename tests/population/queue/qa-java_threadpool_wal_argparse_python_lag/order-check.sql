/* Rows returned = order_no with a broken sequence. */
SELECT order_no,
       seq,
       next_seq,
       CASE WHEN next_seq = seq THEN 'duplicate seq' ELSE 'missing seq' END AS problem
FROM (
    SELECT order_no,
           seq,
           LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
    FROM processed
)
WHERE next_seq IS NOT NULL
  AND next_seq <> seq + 1
ORDER BY order_no, seq;
