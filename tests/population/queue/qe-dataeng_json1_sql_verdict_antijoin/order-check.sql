-- order-check.sql : per order_no, a seq that is duplicated or missing.
-- Part 1: (order_no, seq) pairs that occur more than once.
-- Part 2: every seq below the order's max whose successor seq+1 is absent
--         (one row per hole, whatever its width).
SELECT order_no, seq, 'duplicate' AS problem
FROM   processed
GROUP  BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
SELECT p.order_no, p.seq + 1, 'missing'
FROM   processed AS p
WHERE  p.seq < (SELECT MAX(m.seq) FROM processed AS m WHERE m.order_no = p.order_no)
  AND  NOT EXISTS (SELECT 1 FROM processed AS n
                   WHERE n.order_no = p.order_no AND n.seq = p.seq + 1)
ORDER  BY 1, 2;
