-- order-check.sql
-- Inside one order_no the seqs must be consecutive.
-- Compare every seq with the next one (LEAD): a difference of 0 is a duplicate,
-- a difference above 1 is a hole. No rows = no problem.
SELECT order_no,
       seq,
       next_seq,
       CASE WHEN next_seq = seq THEN 'duplicate' ELSE 'missing' END AS problem
FROM (
    SELECT order_no,
           seq,
           LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
    FROM processed
) AS t
WHERE next_seq IS NOT NULL
  AND next_seq - seq <> 1
ORDER BY order_no, seq;
