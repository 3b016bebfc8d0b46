import Testing
import HAPAnalysis
