-- rows = problems. a row is either a seq that appears twice in one order,
-- or a seq after which the next one is missing although a bigger one exists
SELECT a.order_no, a.seq, 'next seq missing' AS problem
FROM processed a
WHERE NOT EXISTS (SELECT 1 FROM processed b
                  WHERE b.order_no = a.order_no AND b.seq = a.seq + 1)
  AND EXISTS (SELECT 1 FROM processed c
              WHERE c.order_no = a.order_no AND c.seq > a.seq + 1)
UNION
SELECT order_no, seq, 'seq duplicated'
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1;
