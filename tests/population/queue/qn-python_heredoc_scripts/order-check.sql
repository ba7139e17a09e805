/* order check: a seq that repeats, or a jump to the next seq bigger than 1 */
WITH ordered AS (
    SELECT order_no,
           seq,
           LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
    FROM processed
)
SELECT order_no, seq, next_seq,
       CASE WHEN next_seq = seq THEN 'duplicate' ELSE 'gap' END AS problem
FROM ordered
WHERE next_seq IS NOT NULL
  AND next_seq <> seq + 1;
