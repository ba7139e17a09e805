-- Step 6: a seq that appears more than once within one order_no.
SELECT order_no, seq, COUNT(*) AS copies
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1;
